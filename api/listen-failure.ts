// What a person reads when the API cannot take its port. Express 5 hands a listen error to `app.listen`'s callback
// instead of throwing it, so without this check the process stayed up serving nothing while its start-up line said
// "API listening", and `npm start` announced a ready service that was another program on that port.

/** The line the API prints before it exits because `listen` failed on `port`. */
export function listenFailureMessage(err: NodeJS.ErrnoException, port: number): string {
  if (err.code === 'EADDRINUSE') {
    return (
      `The API cannot listen on port ${port}: another process already does (find it with \`ss -ltnp 'sport = :${port}'\`). ` +
      `Stop it, or start on another port: PORT=${port <= 65435 ? port + 100 : 3100} npm start (PORT sets the API's port). ` +
      'If it is ockhub from another checkout, give this one its own database and Redis prefix too (DATABASE_URL, ' +
      "REDIS_PREFIX), or it migrates the other one's tables and its workers take the other one's jobs (README)."
    );
  }
  if (err.code === 'EACCES') {
    return `The API cannot listen on port ${port}: this user may not open it (ports below 1024 need privileges). Set PORT to a port above 1023.`;
  }
  return `The API cannot listen on port ${port}: ${err.message}`;
}
