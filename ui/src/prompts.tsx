// Prompts: an argument form (with completions) and the messages prompts/get returns.
import { useState } from 'preact/hooks';
import { api } from './api.js';
import { CompletionInput } from './completion-input.js';
import { ContentItem } from './content.js';

export type Prompt = {
  name: string;
  title?: string;
  description?: string;
  arguments?: { name: string; description?: string; required?: boolean }[];
};
type Message = { role: string; content: Record<string, unknown> };

function PromptForm({ prompt }: { prompt: Prompt }) {
  const [values, setValues] = useState<Record<string, string>>({});
  // Fields the person has left (or tried to send): their messages show from then on.
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [outcome, setOutcome] = useState<{ messages?: Message[]; error?: string } | undefined>();
  const args = prompt.arguments ?? [];
  const missing = args.filter((a) => a.required && !values[a.name]).map((a) => a.name);
  const touch = (...names: string[]) => setTouched((t) => new Set([...t, ...names]));
  const get = async (e: Event) => {
    e.preventDefault();
    touch(...args.map((a) => a.name));
    if (missing.length > 0) return;
    try {
      setOutcome(await api<{ messages: Message[] }>('prompt', { name: prompt.name, arguments: values }));
    } catch (error) {
      setOutcome({ error: error instanceof Error ? error.message : String(error) });
    }
  };
  return (
    <form class="panel" data-test="prompt-form" noValidate onSubmit={(e) => void get(e)}>
      <h3>{prompt.title ?? prompt.name}</h3>
      <p class="muted">{prompt.description}</p>
      {args.map((a) => (
        <CompletionInput
          key={a.name}
          name={a.name}
          value={values[a.name] ?? ''}
          required={a.required}
          error={touched.has(a.name) && missing.includes(a.name) ? 'required' : undefined}
          reference={{ type: 'ref/prompt', name: prompt.name }}
          context={values}
          onChange={(v) => setValues({ ...values, [a.name]: v })}
          onLeave={() => touch(a.name)}
        />
      ))}
      <button type="submit" data-test="get-prompt" onMouseDown={(e) => e.preventDefault()}>
        Get prompt
      </button>
      {outcome?.error && <div class="result error">{outcome.error}</div>}
      {outcome?.messages?.map((m, i) => (
        <div key={i} class="message">
          <span class="tag">{m.role}</span>
          <ContentItem item={m.content} />
        </div>
      ))}
    </form>
  );
}

/** The prompts tab. */
export function PromptsView({ prompts }: { prompts: Prompt[] }) {
  const [selected, setSelected] = useState<string | undefined>();
  const prompt = prompts.find((p) => p.name === selected);
  return (
    <div class="split">
      <ul class="list" data-test="prompt-list">
        {prompts.map((p) => (
          <li key={p.name} class={p.name === selected ? 'selected' : ''} onClick={() => setSelected(p.name)}>
            <strong>{p.title ?? p.name}</strong>
            <div class="muted">{p.description}</div>
          </li>
        ))}
      </ul>
      {prompt ? <PromptForm key={prompt.name} prompt={prompt} /> : <p class="muted">Pick a prompt.</p>}
    </div>
  );
}
