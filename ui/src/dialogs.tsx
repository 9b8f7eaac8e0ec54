// Answers the server's requests by hand: form elicitation (a form from requestedSchema:
// accept, decline or cancel), URL elicitation (the URL shown), and sampling (a reply typed
// by the person).
import { useCallback, useState } from 'preact/hooks';
import { api, type AppEvent } from './api.js';
import { useEvents } from './bus.js';
import { ContentItem } from './content.js';
import { SchemaForm } from './schema-form.js';

/** A server request waiting for the person; `taskId` when it belongs to a task (Tasks view). */
export type Input = {
  id: string;
  kind: 'elicitation' | 'sampling';
  params: Record<string, unknown>;
  taskId?: string;
};

const answer = (id: string, outcome: Record<string, unknown>) => void api('answer', { id, ...outcome });

export function Elicitation({ input }: { input: Input }) {
  const { params, id } = input;
  const decline = (
    <>
      <button type="button" data-test="decline" onClick={() => answer(id, { result: { action: 'decline' } })}>
        Decline
      </button>
      <button
        type="button"
        data-test="cancel-elicitation"
        onClick={() => answer(id, { result: { action: 'cancel' } })}
      >
        Cancel
      </button>
    </>
  );
  if (params.mode === 'url')
    return (
      <div data-test="url-elicitation">
        <p>{String(params.message ?? '')}</p>
        <p>
          The server asks you to open: <code data-test="elicitation-url">{String(params.url ?? '')}</code>
        </p>
        <div class="buttons">
          <button
            type="button"
            data-test="accept"
            onClick={() => answer(id, { result: { action: 'accept' } })}
          >
            Accept (I opened it)
          </button>
          {decline}
        </div>
      </div>
    );
  return (
    <div data-test="form-elicitation">
      <p>{String(params.message ?? '')}</p>
      <SchemaForm
        schema={params.requestedSchema as Record<string, unknown>}
        submitLabel="Accept"
        testId="elicitation-form"
        onSubmit={(content) => answer(id, { result: { action: 'accept', content } })}
      >
        {decline}
      </SchemaForm>
    </div>
  );
}

export function Sampling({ input }: { input: Input }) {
  const [text, setText] = useState('');
  const messages = (input.params.messages ?? []) as { role: string; content: Record<string, unknown> }[];
  const send = () =>
    answer(input.id, {
      result: {
        role: 'assistant',
        content: { type: 'text', text },
        model: 'mcpkit-inspector (by hand)',
        stopReason: 'endTurn',
      },
    });
  return (
    <div data-test="sampling">
      {messages.map((m, i) => (
        <div key={i} class="message">
          <span class="tag">{m.role}</span>
          {Array.isArray(m.content) ? (
            m.content.map((c, j) => <ContentItem key={j} item={c} />)
          ) : (
            <ContentItem item={m.content} />
          )}
        </div>
      ))}
      <textarea
        rows={4}
        data-test="sampling-reply"
        value={text}
        placeholder="The model's reply"
        onInput={(e) => setText(e.currentTarget.value)}
      />
      <div class="buttons">
        <button type="button" data-test="sampling-send" onClick={send}>
          Send reply
        </button>
        <button type="button" onClick={() => answer(input.id, { error: 'the person declined to sample' })}>
          Refuse
        </button>
      </div>
    </div>
  );
}

/**
 * Shows the oldest waiting request of the server as a modal dialog; a task's requests are
 * answered in the Tasks view instead.
 */
export function InputDialogs() {
  const [inputs, setInputs] = useState<Input[]>([]);
  useEvents(
    useCallback((e: AppEvent) => {
      if (e.type === 'input' && e.taskId === undefined) setInputs((list) => [...list, e as unknown as Input]);
      if (e.type === 'input-done') setInputs((list) => list.filter((i) => i.id !== e.id));
    }, []),
  );
  const input = inputs[0];
  if (!input) return null;
  return (
    <div class="overlay">
      <div class="dialog" role="dialog" data-test="input-dialog">
        <h3>{input.kind === 'sampling' ? 'The server asks for a model reply' : 'The server asks you'}</h3>
        {input.kind === 'sampling' ? (
          <Sampling key={input.id} input={input} />
        ) : (
          <Elicitation key={input.id} input={input} />
        )}
        {inputs.length > 1 && <p class="muted">{inputs.length - 1} more waiting</p>}
      </div>
    </div>
  );
}
