// One item of a web fetch answer: the URL as requested, its title and readable text, or an error for that URL.
export type FetchedPage = { url: string; title: string; content: string; error?: string };

export const failedPage = (url: string, error: string): FetchedPage => ({ url, title: '', content: '', error });
