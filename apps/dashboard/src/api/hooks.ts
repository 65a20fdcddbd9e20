/**
 * Server state through TanStack Query (DESIGN §15): reads are queries keyed by path and parameters, so every page
 * showing the same list stays in step; actions are mutations that go through the step-up dialog when the API asks
 * for one, then refresh the reads they change.
 */
import {
  useMutation,
  useQuery,
  useQueryClient,
  type UseMutationResult,
  type UseQueryResult,
} from "@tanstack/react-query";
import { get, type CallOptions } from "./client";
import { useStepUp } from "./step-up";

/** `GET path?query`, cached under the path and query. */
export function useApiQuery<T>(
  path: string,
  query: CallOptions["query"] = {},
  options: { enabled?: boolean; refetchInterval?: number | false } = {},
): UseQueryResult<T> {
  return useQuery<T>({
    queryKey: [path, query],
    queryFn: () => get<T>(path, query),
    enabled: options.enabled,
    refetchInterval: options.refetchInterval,
  });
}

/**
 * An action: `run(args)` through the step-up dialog; on success, every read whose path starts with one of
 * `invalidates` is fetched again.
 */
export function useApiAction<TArgs, TResult>(
  run: (args: TArgs) => Promise<TResult>,
  invalidates: string[] = [],
  onSuccess?: (result: TResult, args: TArgs) => void,
): UseMutationResult<TResult, Error, TArgs> {
  const withStepUp = useStepUp();
  const client = useQueryClient();
  return useMutation<TResult, Error, TArgs>({
    mutationFn: (args) => withStepUp(() => run(args)),
    onSuccess: async (result, args) => {
      onSuccess?.(result, args);
      await client.invalidateQueries({
        predicate: (query) => invalidates.some((prefix) => String(query.queryKey[0]).startsWith(prefix)),
      });
    },
  });
}
