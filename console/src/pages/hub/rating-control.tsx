// Rating an item 1–5 (PUT /api/v1/{type}/{slug}/rating, one rating per account; a new score replaces the old one).
// The average shown comes from the API's answer to the rating itself: the public item read is cached (in the API
// for seconds, in the browser for up to 30 s), so a refetch right after could show the average from before it.
// One's own earlier rating is read with GET …/rating (404 Rating.NotFound: none yet) and marked among the scores.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation } from 'react-router';
import { ApiError, api } from '../../api/http.js';
import { apiPath } from '../../api/paths.js';
import { formatCountOf } from '../../format.js';
import { useMe } from '../../session/session.js';
import { FormError } from '../../ui/status.js';
import type { ItemDetail, ItemType } from './hub-api.js';

type Rated = { score: number; ratingAverage: number; ratingCount: number };

const scores = [1, 2, 3, 4, 5] as const;

/** "4.50 out of 5 (12 ratings)", or "not rated yet". */
function ratingText(stats: Pick<ItemDetail['stats'], 'ratingAverage' | 'ratingCount'>): string {
  if (!stats.ratingCount) return 'not rated yet';
  const count = formatCountOf(stats.ratingCount, 'rating');
  return `${(stats.ratingAverage ?? 0).toFixed(2)} out of 5 (${count})`;
}

/** The signed-in account's own score of the item, or null before it rated it. */
function useOwnRating(type: ItemType, slug: string, signedIn: boolean) {
  return useQuery({
    queryKey: ['rating', type, slug],
    queryFn: async () => {
      try {
        return (await api<{ score: number }>(apiPath`/api/v1/${type}/${slug}/rating`)).score;
      } catch (err) {
        if (err instanceof ApiError && err.code === 'Rating.NotFound') return null;
        throw err;
      }
    },
    enabled: signedIn,
  });
}

export function RatingControl({ type, slug, item }: { type: ItemType; slug: string; item: ItemDetail }) {
  const me = useMe();
  const location = useLocation();
  const client = useQueryClient();
  const own = useOwnRating(type, slug, Boolean(me.data));
  const given = own.data ?? undefined;
  const rate = useMutation({
    mutationFn: (score: number) =>
      api<Rated>(apiPath`/api/v1/${type}/${slug}/rating`, { method: 'PUT', body: { score } }),
    onSuccess: (rated) => {
      client.setQueryData(['rating', type, slug], rated.score);
      client.setQueryData<ItemDetail>(['item', type, slug], (old) =>
        old
          ? { ...old, stats: { ...old.stats, ratingAverage: rated.ratingAverage, ratingCount: rated.ratingCount } }
          : old,
      );
    },
  });
  return (
    <>
      <p role="status" data-testid="rating-average">
        Average: {ratingText(item.stats)}
      </p>
      {me.data ? (
        <>
          {/* Not disabled while a rating is on its way: a disabled button would drop the keyboard's focus. */}
          <fieldset className="rating">
            <legend>Your rating</legend>
            {scores.map((score) => (
              <button
                key={score}
                type="button"
                aria-pressed={given === score}
                aria-label={`${score} out of 5`}
                onClick={() => (rate.isPending ? undefined : rate.mutate(score))}
              >
                <span aria-hidden="true">{given !== undefined && score <= given ? '★' : '☆'}</span>
              </button>
            ))}
          </fieldset>
          <p className="muted" role="status">
            {given ? `You rated it ${given} out of 5. Choose again to change it.` : 'One rating per account.'}
          </p>
          <FormError error={rate.error ?? own.error} />
        </>
      ) : (
        <p className="muted">
          <Link to={`/sign-in?next=${encodeURIComponent(location.pathname)}`}>Sign in</Link> to rate this item.
        </p>
      )}
    </>
  );
}
