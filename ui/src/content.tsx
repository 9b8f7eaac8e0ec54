// Renders MCP content: text, image and audio inline, resource links, embedded resources,
// and a tool result's structuredContent and isError.
type Content = Record<string, unknown> & { type?: string };

function dataUrl(item: Content): string {
  return `data:${String(item.mimeType ?? 'application/octet-stream')};base64,${String(item.data ?? '')}`;
}

function Resource({ resource }: { resource: Record<string, unknown> }) {
  const uri = String(resource.uri ?? '');
  if (typeof resource.text === 'string')
    return (
      <div class="embedded">
        <div class="uri">{uri}</div>
        <pre>{resource.text}</pre>
      </div>
    );
  if (typeof resource.blob === 'string' && String(resource.mimeType ?? '').startsWith('image/'))
    return <img alt={uri} src={`data:${String(resource.mimeType)};base64,${resource.blob}`} />;
  return (
    <div class="embedded">
      <div class="uri">{uri}</div>
      <em>binary, {String(resource.mimeType ?? 'unknown type')}</em>
    </div>
  );
}

/** One content item. */
export function ContentItem({ item }: { item: Content }) {
  switch (item.type) {
    case 'text':
      return <pre class="text">{String(item.text ?? '')}</pre>;
    case 'image':
      return <img class="image" data-test="image" alt="image content" src={dataUrl(item)} />;
    case 'audio':
      return <audio controls data-test="audio" src={dataUrl(item)} />;
    case 'resource_link':
      return (
        <div class="link" data-test="resource-link">
          🔗 {String(item.name ?? '')} <code>{String(item.uri ?? '')}</code>
          {item.description ? <span class="muted"> {String(item.description)}</span> : null}
        </div>
      );
    case 'resource':
      return <Resource resource={(item.resource ?? {}) as Record<string, unknown>} />;
    default:
      return <pre class="text">{JSON.stringify(item, null, 2)}</pre>;
  }
}

/** A list of content items. */
function ContentList({ content }: { content: unknown }) {
  const items = Array.isArray(content) ? (content as Content[]) : [];
  return (
    <div class="content">
      {items.map((item, i) => (
        <ContentItem key={i} item={item} />
      ))}
    </div>
  );
}

/**
 * A tools/call result: isError, content and structuredContent. `check` is what the CLI's
 * client found comparing structuredContent with the tool's outputSchema: `match` (it checked
 * and accepted), `mismatch` (it refused this result; it is shown as the server sent it), or
 * `none` (the tool declares no outputSchema).
 */
export function ToolResult({
  result,
  check,
}: {
  result: Record<string, unknown>;
  check: 'match' | 'mismatch' | 'none';
}) {
  const isError = result.isError === true;
  return (
    <div class={isError || check === 'mismatch' ? 'result error' : 'result'} data-test="tool-result">
      {isError && <div class="badge error">isError: the tool reported an error</div>}
      <ContentList content={result.content} />
      {result.structuredContent !== undefined && (
        <div class="structured" data-test="structured">
          <div class="label">
            structuredContent
            {check === 'match' && !isError && (
              <span class="badge ok" data-test="output-match">
                {' '}
                ✓ matches outputSchema
              </span>
            )}
            {check === 'mismatch' && (
              <span class="badge error" data-test="output-mismatch">
                {' '}
                ✗ does not match outputSchema
              </span>
            )}
          </div>
          <pre>{JSON.stringify(result.structuredContent, null, 2)}</pre>
        </div>
      )}
    </div>
  );
}
