/**
 * Building blocks of the wire schemas. The schemas are TypeBox values: JSON Schema at run time (the OpenAPI document
 * is generated from them) and TypeScript types at compile time (`Static<typeof X>` is what a serializer returns), so
 * a field is declared once. A schema given a name by {@link wireObject} becomes a named component of the document,
 * referenced by `$ref` wherever it is used.
 */
import {
  Type,
  type SchemaOptions,
  type Static,
  type TNull,
  type TSchema,
  type TUnion,
  type TUnsafe,
} from "@sinclair/typebox";

/**
 * Names `schema` `name` (its `$id`): the document generator lists it once under `components.schemas.<name>` and
 * refers to it elsewhere.
 */
export function wireObject<T extends TSchema>(name: string, schema: T): T {
  return { ...schema, $id: name };
}

/** `schema` or `null`: a field always present, null when it has no value (the service never omits such a field). */
export function Nullable<T extends TSchema>(schema: T, options: SchemaOptions = {}): TUnion<[T, TNull]> {
  return Type.Union([schema, Type.Null()], options);
}

/** One of `values`, as the document's `enum` (`{type: "string", enum: [...]}`) and as their union type. */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  options: SchemaOptions = {},
): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ ...options, type: "string", enum: [...values] });
}

/** An object of any string keys whose values are `value` (metadata, headers). */
export function StringMap<V extends TSchema>(
  value: V,
  options: SchemaOptions = {},
): TUnsafe<Record<string, Static<V>>> {
  return Type.Unsafe<Record<string, Static<V>>>({ ...options, type: "object", additionalProperties: value });
}

/** A page of a list, newest first (DESIGN §2 "Lists"), named `name`, whose `data` are `item`s. */
export function listOf<T extends TSchema>(name: string, item: T) {
  return wireObject(
    name,
    Type.Object({
      object: Type.Literal("list"),
      data: Type.Array(item),
      has_more: Type.Boolean({ description: "Whether more items follow in this direction." }),
    }),
  );
}

/** An ISO 8601 instant in UTC with milliseconds (`2026-11-26T19:03:19.006Z`). */
export const Timestamp = Type.String({ format: "date-time" });

/** `date` as an ISO 8601 instant, or null. */
export function iso(date: Date | null): string | null {
  return date === null ? null : date.toISOString();
}
