/**
 * The OpenAPI document with its objects closed, for the reply checks: the public document leaves objects open (a
 * client must accept fields added later), but a test must fail when a serializer sends a field the document does not
 * name, so the copy the checks compile says `unevaluatedProperties: false` wherever an object is described.
 *
 * JSON Schema 2020-12 §11.3: `unevaluatedProperties` sees the properties evaluated by every in-place applicator at the
 * same instance location (`allOf`, `oneOf`, `anyOf`, `$ref`). So only the outermost schema of each location closes;
 * the parts it composes stay open, or a part would refuse the fields of its siblings. A component schema can be both
 * (`WebhookEndpoint` is a reply of its own and a part of `CreatedWebhookEndpoint`), so each component exists twice:
 * closed under `components.schemas` and open under `components["x-open-schemas"]`, where references from a part lead.
 */
import { deref, isObject, type Json, type JsonObject } from "./openapi-document";

const SCHEMAS = "#/components/schemas/";
const OPEN_SCHEMAS = "#/components/x-open-schemas/";

/** Whether a schema sits alone at its instance location (`root`) or inside a composition that closes it (`part`). */
type Role = "root" | "part";

/** Keywords (besides `properties`) whose subschema describes other instance locations: each closes on its own. */
const CHILD_KEYWORDS = ["items", "additionalProperties"] as const;

/**
 * A deep copy of `document` whose schemas (components, and the media types of paths, webhooks and component
 * responses) have their objects closed as described above.
 * @param document - an OpenAPI 3.1 document whose schema references are all local (`#/components/schemas/...`)
 * @returns the copy, with `components["x-open-schemas"]` added; `document` itself is left unchanged
 */
export function closeObjects(document: JsonObject): JsonObject {
  const copy = structuredClone(document);
  const components = isObject(copy.components) ? copy.components : {};
  const schemas = isObject(components.schemas) ? components.schemas : {};
  const closer = new Closer(document);
  const open: JsonObject = {};
  for (const [name, schema] of Object.entries(schemas)) {
    open[name] = closer.close(schema, "part");
    schemas[name] = closer.close(schema, "root");
  }
  components["x-open-schemas"] = open;
  for (const media of mediaTypesOf(copy)) {
    if (media.schema !== undefined) media.schema = closer.close(media.schema, "root");
  }
  return copy;
}

/**
 * `schema`, written against the components of `document` but not part of it, closed as the document's own reply
 * schemas are by {@link closeObjects}; its references still lead to `#/components/schemas/...`.
 */
export function closeSchema(document: JsonObject, schema: Json): Json {
  return new Closer(document).close(structuredClone(schema), "root");
}

/** Every media type object of the operations, webhooks and component responses of `document` (inside the copy). */
function mediaTypesOf(document: JsonObject): JsonObject[] {
  const components = isObject(document.components) ? document.components : {};
  const containers = [document.paths, document.webhooks, components.responses];
  const found: JsonObject[] = [];
  const visit = (value: Json | undefined): void => {
    if (Array.isArray(value)) value.forEach(visit);
    if (!isObject(value)) return;
    if (isObject(value.content)) {
      for (const media of Object.values(value.content)) if (isObject(media)) found.push(media);
    }
    for (const [key, child] of Object.entries(value)) if (key !== "content") visit(child);
  };
  containers.forEach(visit);
  return found;
}

class Closer {
  constructor(private readonly document: JsonObject) {}

  /** `schema` transformed for `role`; a new object, sharing only keyword values that are not schemas. */
  close(schema: Json | undefined, role: Role): Json {
    if (!isObject(schema)) return schema ?? {};
    const out: JsonObject = { ...schema };
    if (typeof schema.$ref === "string" && role === "part") out.$ref = schema.$ref.replace(SCHEMAS, OPEN_SCHEMAS);
    // A schema that composes (allOf, or a `$ref` beside its own properties) or names properties describes the object
    // at its location; when it is the outermost, it is where the location closes.
    const composes = Array.isArray(schema.allOf) || (typeof schema.$ref === "string" && "properties" in schema);
    const describes = composes || isObject(schema.properties);
    const closes =
      role === "root" && describes && !("additionalProperties" in schema) && !("unevaluatedProperties" in schema);
    if (closes) out.unevaluatedProperties = false;
    if (composes && typeof schema.$ref === "string") out.$ref = schema.$ref.replace(SCHEMAS, OPEN_SCHEMAS);

    if (Array.isArray(schema.allOf)) out.allOf = schema.allOf.map((part) => this.close(part, "part"));
    // Branches of a composition that closes are parts of it; branches of a bare `oneOf` each close on their own,
    // which also keeps the branches apart (a body with another branch's field matches only that branch).
    const branchRole: Role = closes || role === "part" ? "part" : "root";
    for (const key of ["oneOf", "anyOf"] as const) {
      const branches = schema[key];
      if (Array.isArray(branches)) out[key] = branches.map((branch) => this.close(branch, branchRole));
    }
    if (isObject(schema.properties)) {
      // A property an allOf part also declares is refined here (`error.code` pinned to one code): the part's
      // declaration closes it, so the refinement must not.
      const inherited = this.declaredByParts(schema);
      out.properties = Object.fromEntries(
        Object.entries(schema.properties).map(([name, child]) => [
          name,
          this.close(child, inherited.has(name) ? "part" : "root"),
        ]),
      );
    }
    for (const key of CHILD_KEYWORDS) {
      if (isObject(schema[key])) out[key] = this.close(schema[key], "root");
    }
    return out;
  }

  /** Property names the allOf parts (and a `$ref` beside properties) of `schema` declare, through their own parts. */
  private declaredByParts(schema: JsonObject, seen = new Set<JsonObject>()): Set<string> {
    const parts: Json[] = [...(Array.isArray(schema.allOf) ? schema.allOf : [])];
    if (typeof schema.$ref === "string") parts.push({ $ref: schema.$ref });
    const names = new Set<string>();
    for (const part of parts) {
      const resolved = deref(this.document, part);
      if (!isObject(resolved) || seen.has(resolved)) continue;
      seen.add(resolved);
      if (isObject(resolved.properties)) Object.keys(resolved.properties).forEach((name) => names.add(name));
      this.declaredByParts(resolved, seen).forEach((name) => names.add(name));
    }
    return names;
  }
}
