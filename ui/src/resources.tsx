// Resources and resource templates: read a resource, or fill a template's variables (with
// completions) and read the expanded URI.
import { useState } from 'preact/hooks';
import { parseTemplate } from 'url-template';
import { api } from './api.js';
import { CompletionInput } from './completion-input.js';
import { ContentItem } from './content.js';

export type Resource = { uri: string; name: string; title?: string; description?: string; mimeType?: string };
export type Template = { uriTemplate: string; name: string; title?: string; description?: string };

/** The variable names of an RFC 6570 template. */
function variables(template: string): string[] {
  const names: string[] = [];
  for (const [, expression = ''] of template.matchAll(/\{([^}]*)\}/g))
    for (const spec of expression.replace(/^[+#./;?&]/, '').split(','))
      names.push(spec.replace(/(\*|:\d+)$/, '').trim());
  return names.filter((n) => n !== '');
}

type Read = { uri: string; contents?: unknown[] } | { uri: string; error: string };

function ReadResult({ read }: { read: Read | undefined }) {
  if (!read) return null;
  if ('error' in read) return <div class="result error">{read.error}</div>;
  return (
    <div class="result" data-test="read-result">
      <div class="uri">{read.uri}</div>
      {(read.contents ?? []).map((c, i) => (
        <ContentItem key={i} item={{ type: 'resource', resource: c }} />
      ))}
    </div>
  );
}

function TemplateForm(props: { template: Template; onRead: (uri: string) => void }) {
  const names = variables(props.template.uriTemplate);
  const [values, setValues] = useState<Record<string, string>>({});
  const uri = parseTemplate(props.template.uriTemplate).expand(values);
  return (
    <form
      class="template"
      data-test={`template-${props.template.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        props.onRead(uri);
      }}
    >
      <strong>{props.template.title ?? props.template.name}</strong> <code>{props.template.uriTemplate}</code>
      {names.map((name) => (
        <CompletionInput
          key={name}
          name={name}
          value={values[name] ?? ''}
          reference={{ type: 'ref/resource', uri: props.template.uriTemplate }}
          context={values}
          onChange={(v) => setValues({ ...values, [name]: v })}
        />
      ))}
      <button type="submit" data-test="read-template">
        Read {uri}
      </button>
    </form>
  );
}

/** The resources tab. */
export function ResourcesView(props: { resources: Resource[]; templates: Template[] }) {
  const [read, setRead] = useState<Read | undefined>();
  const readUri = async (uri: string) => {
    try {
      setRead({ uri, ...(await api<{ contents?: unknown[] }>('read', { uri })) });
    } catch (error) {
      setRead({ uri, error: error instanceof Error ? error.message : String(error) });
    }
  };
  return (
    <div class="split">
      <div>
        <h4>Resources</h4>
        <ul class="list" data-test="resource-list">
          {props.resources.map((r) => (
            <li key={r.uri} onClick={() => void readUri(r.uri)}>
              <strong>{r.title ?? r.name}</strong> <code>{r.uri}</code>
              <div class="muted">{r.description}</div>
            </li>
          ))}
        </ul>
        <h4>Templates</h4>
        {props.templates.map((t) => (
          <TemplateForm key={t.uriTemplate} template={t} onRead={(uri) => void readUri(uri)} />
        ))}
      </div>
      <ReadResult read={read} />
    </div>
  );
}
