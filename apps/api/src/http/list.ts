/**
 * Lists with cursor paging (DESIGN §2 "Lists"): `{object: "list", data, has_more}`, newest first, `limit` 1..100
 * (default 20), `starting_after` (the page after that id) or `ending_before` (the page before it). Ids are
 * time-sortable, so the cursor is an id and the order is by id. Shared by every list of the merchant, panel and ops
 * APIs: a route adds its filters to {@link listQuerySchema} and hands its query to {@link listPage}.
 */
import Joi from "joi";
import { isId, validationFailed, type IdKind, type PageArgs } from "@lm/domain";

/** The paging part of a validated list query. */
export interface ListQuery {
  limit: number;
  starting_after?: string;
  ending_before?: string;
}

/** Wire form of a list. */
export interface ListReply<T> {
  object: "list";
  data: T[];
  has_more: boolean;
}

/** Largest page. */
export const MAX_LIST_LIMIT = 100;

/**
 * The joi schema of a list query: `limit`, the two cursors, and the route's own `filters`. Query strings are text, so
 * it converts (`limit=20` is a number); an unknown parameter is refused rather than ignored, so that a misspelt filter
 * (`?stauts=paid`) cannot silently list everything.
 */
export function listQuerySchema(filters: Joi.PartialSchemaMap = {}): Joi.ObjectSchema {
  return Joi.object({
    limit: Joi.number().integer().min(1).max(MAX_LIST_LIMIT).default(20),
    starting_after: Joi.string()
      .max(64)
      .description("An id of this list: the page after it (older). Not with `ending_before`."),
    ending_before: Joi.string()
      .max(64)
      .description("An id of this list: the page before it (newer). Not with `starting_after`."),
    ...filters,
  }).prefs({ convert: true, stripUnknown: false });
}

/**
 * The `findMany` arguments of the page `query` asks for: one row more than the limit, to learn `has_more`.
 * @param kind - the listed resource, whose ids the cursors must be
 * @throws ApiError `validation_failed` (param `ending_before`) when both cursors are given, or (param = the cursor)
 *   when a cursor is not an id of `kind`
 */
export function pageArgs(query: ListQuery, kind: IdKind): PageArgs {
  const { starting_after: after, ending_before: before } = query;
  if (after !== undefined && before !== undefined) {
    throw validationFailed("Give starting_after or ending_before, not both.", "ending_before");
  }
  for (const [param, cursor] of [
    ["starting_after", after],
    ["ending_before", before],
  ] as const) {
    if (cursor !== undefined && !isId(kind, cursor))
      throw validationFailed(`${param} must be an id of this list.`, param);
  }
  if (before !== undefined) return { id: { gt: before }, orderBy: { id: "asc" }, take: query.limit + 1 };
  return { ...(after === undefined ? {} : { id: { lt: after } }), orderBy: { id: "desc" }, take: query.limit + 1 };
}

/**
 * Reads one page with `fetch` and serializes it, newest first.
 * @param fetch - reads rows with the given {@link PageArgs} (spread into `findMany`)
 * @param serialize - the resource's serializer
 */
export async function listPage<Row, Wire>(
  query: ListQuery,
  kind: IdKind,
  fetch: (page: PageArgs) => Promise<Row[]>,
  serialize: (row: Row) => Wire,
): Promise<ListReply<Wire>> {
  const args = pageArgs(query, kind);
  const rows = await fetch(args);
  const page = rows.slice(0, query.limit);
  // Walking back from `ending_before` reads oldest first; the page is still shown newest first.
  if (args.orderBy.id === "asc") page.reverse();
  return { object: "list", data: page.map(serialize), has_more: rows.length > query.limit };
}
