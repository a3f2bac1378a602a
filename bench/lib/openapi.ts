type Schema = {
  $ref?: string;
  properties?: Record<string, unknown>;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
};
interface Document {
  paths?: Record<string, { post?: { requestBody?: { content?: Record<string, { schema?: Schema }> } } }>;
  components?: { schemas?: Record<string, Schema> };
}

/** Whether `schema` (resolving local references) has a top-level property `name`. */
function hasProperty(doc: Document, schema: Schema | undefined, name: string, depth = 0): boolean {
  if (!schema || depth > 8) return false;
  if (schema.$ref?.startsWith('#/components/schemas/'))
    return hasProperty(doc, doc.components?.schemas?.[schema.$ref.slice(21)], name, depth + 1);
  if (schema.properties && name in schema.properties) return true;
  return [...(schema.allOf ?? []), ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].some((part) =>
    hasProperty(doc, part, name, depth + 1),
  );
}

/**
 * The paths whose input has a top-level `name` (e.g. `app`), read from the server's own OpenAPI
 * document: the bench follows what the running build accepts, whichever release it is.
 */
export async function pathsTaking(base: string, name: string): Promise<Set<string>> {
  const answer = await fetch(`${base}/api/openapi.json`, { signal: AbortSignal.timeout(30_000) });
  if (!answer.ok) throw new Error(`/api/openapi.json: HTTP ${answer.status}`);
  const doc = (await answer.json()) as Document;
  const paths = new Set<string>();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    const content = item.post?.requestBody?.content ?? {};
    if (Object.values(content).some((body) => hasProperty(doc, body.schema, name))) paths.add(path);
  }
  return paths;
}
