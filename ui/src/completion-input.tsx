// A text input whose suggestions come from completion/complete (server/utilities/completion),
// asked through the CLI's client as the person types.
import { useRef, useState } from 'preact/hooks';
import { api } from './api.js';

interface Props {
  /** `{ type: 'ref/resource', uri }` or `{ type: 'ref/prompt', name }`. */
  reference: Record<string, unknown>;
  name: string;
  value: string;
  /** Values of the other arguments, sent as the completion context. */
  context: Record<string, string>;
  onChange: (value: string) => void;
  /** Called when the field loses focus. */
  onLeave?: () => void;
  /** A validation message to show at the field. */
  error?: string | undefined;
  required?: boolean | undefined;
}

/** An input with a datalist of completions. */
export function CompletionInput(props: Props) {
  const [values, setValues] = useState<string[]>([]);
  const asked = useRef(0);
  const listId = `complete-${props.name}`;
  const ask = async (value: string) => {
    const turn = ++asked.current; // answers to older keystrokes that arrive late are dropped
    try {
      const result = await api<{ completion?: { values?: string[] } }>('complete', {
        ref: props.reference,
        argument: { name: props.name, value },
        context: { arguments: props.context },
      });
      if (turn === asked.current) setValues(result.completion?.values ?? []);
    } catch {
      if (turn === asked.current) setValues([]);
    }
  };
  return (
    <label class="field">
      {props.name}
      {props.required && <span class="required-mark"> *</span>}
      <input
        data-test={`arg-${props.name}`}
        list={listId}
        value={props.value}
        onFocus={(e) => void ask(e.currentTarget.value)}
        onBlur={() => props.onLeave?.()}
        aria-invalid={props.error ? 'true' : undefined}
        onInput={(e) => {
          props.onChange(e.currentTarget.value);
          void ask(e.currentTarget.value);
        }}
      />
      {props.error && (
        <span class="errmsg" data-test={`error-${props.name}`}>
          {props.error}
        </span>
      )}
      <datalist id={listId}>
        {values.map((v) => (
          <option key={v} value={v} />
        ))}
      </datalist>
      {values.length > 0 && (
        <span class="suggestions" data-test={`suggestions-${props.name}`}>
          {values.slice(0, 8).map((v) => (
            <button type="button" key={v} class="chip" onClick={() => props.onChange(v)}>
              {v}
            </button>
          ))}
        </span>
      )}
    </label>
  );
}
