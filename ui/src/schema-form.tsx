// A form generated from a JSON Schema by @json-editor/json-editor, with a raw-JSON editor as
// the fallback (for schemas the library cannot render, or by choice). Validation messages
// show at each field as the person types or leaves it, and all of them on submit.
import { JSONEditor } from '@json-editor/json-editor';
import { useEffect, useRef, useState } from 'preact/hooks';
import { withoutPatterns } from './safe-schema.js';
import { withFormHints } from './form-hints.js';

type Schema = Record<string, unknown>;

interface Props {
  schema: Schema | undefined;
  /** Called with the value when the person submits a valid form. */
  onSubmit: (value: Record<string, unknown>) => void;
  submitLabel: string;
  /** Extra buttons next to submit (decline, cancel...). */
  children?: preact.ComponentChildren;
  testId?: string;
  /** The value the form starts with (a deep link's arguments), over the schema's defaults. */
  initial?: Record<string, unknown> | undefined;
}

/**
 * Number and integer fields start with the schema's `default`, or empty: the library would
 * otherwise fill a required one with 0, a value the person never chose and that may break
 * the field's own constraint (`minimum: 1`). An empty required field is then flagged like
 * any other, and its placeholder states the constraint (form-hints.ts).
 */
function defaultsOnlyFromSchema(): void {
  const editors = JSONEditor.defaults.editors;
  for (const type of ['number', 'integer'] as const) {
    const Base = editors[type];
    if (Base.defaultsFromSchema) continue;
    editors[type] = class extends Base {
      static readonly defaultsFromSchema = true;
      override getDefault(): unknown {
        return this.schema.default;
      }
    };
  }
}
defaultsOnlyFromSchema();

const EDITOR_OPTIONS = {
  theme: 'html',
  iconlib: null,
  disable_edit_json: true,
  disable_properties: true,
  disable_collapse: true,
  disable_array_delete_all_rows: true,
  disable_array_delete_last_row: true,
  // At a field once the person changed it (see liveValidation), at every field on submit.
  show_errors: 'interaction',
  prompt_before_delete: false,
  use_default_values: true,
  remove_empty_properties: true,
  ajax: false,
};

/** The JSON Schema the editor gets: an object schema with a title-less root. */
function formSchema(schema: Schema | undefined): Schema {
  const base = schema && typeof schema === 'object' ? schema : {};
  return withFormHints(withoutPatterns({ type: 'object', properties: {}, ...base, title: ' ' }));
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** `root[a][0]` (a field's name attribute) → `root.a.0` (the library's path). */
const pathOf = (name: string) => name.replace(/\[([^\]]*)\]/g, '.$1');

const TEXT_INPUTS = new Set(['text', 'number', 'email', 'url', 'search', 'tel', 'password', 'date', 'time']);
const isTyped = (el: EventTarget | null): el is HTMLElement =>
  el instanceof HTMLTextAreaElement || (el instanceof HTMLInputElement && TEXT_INPUTS.has(el.type));

/** Marks the field around `target` as touched: its message shows from now on (see style.css). */
function touch(target: EventTarget | null): void {
  if (target instanceof HTMLElement) target.closest('.form-control')?.classList.add('touched');
}

/**
 * Messages at the field as the person types or leaves it. The library reads a field only on
 * `change` (when it loses focus): each keystroke is passed on as a `change`, and leaving a
 * field marks it as touched, so an empty required field says so too. The library also
 * writes every message when the form is built; those of untouched fields stay hidden
 * until the person submits.
 */
function liveValidation(holder: HTMLElement, editor: JSONEditor): () => void {
  const onInput = (event: Event) => {
    touch(event.target);
    if (isTyped(event.target)) event.target.dispatchEvent(new Event('change'));
  };
  const onLeave = (event: FocusEvent) => {
    touch(event.target);
    const name = event.target instanceof HTMLElement ? event.target.getAttribute('name') : null;
    const field = name ? editor.getEditor(pathOf(name)) : null;
    if (!field) return;
    field.is_dirty = true;
    field.showValidationErrors(editor.validate(editor.getValue()));
  };
  holder.addEventListener('input', onInput);
  holder.addEventListener('focusout', onLeave);
  return () => {
    holder.removeEventListener('input', onInput);
    holder.removeEventListener('focusout', onLeave);
  };
}

/** Keeps one editor per schema text: a reloaded list hands over equal schemas as new objects. */
function useEditor(
  schema: Schema | undefined,
  holder: { current: HTMLDivElement | null },
  initial?: Record<string, unknown>,
) {
  const schemaText = JSON.stringify(schema ?? null);
  const editor = useRef<JSONEditor | null>(null);
  const [failed, setFailed] = useState<string | undefined>();
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (!holder.current) return;
    setReady(false);
    setFailed(undefined);
    let current = true;
    let stop: (() => void) | undefined;
    try {
      const parsed = JSON.parse(schemaText) as Schema | null;
      const created = new JSONEditor(holder.current, {
        ...EDITOR_OPTIONS,
        schema: formSchema(parsed ?? undefined),
      });
      created.on('ready', () => {
        if (initial) created.setValue({ ...(created.getValue() as object), ...initial });
        setReady(true);
      });
      // The schema's $refs are loaded and the form built after the constructor returns.
      created.promise.catch((error: unknown) => current && setFailed(message(error)));
      editor.current = created;
      stop = liveValidation(holder.current, created);
    } catch (error) {
      setFailed(message(error));
    }
    return () => {
      current = false;
      stop?.();
      editor.current?.destroy();
      editor.current = null;
    };
  }, [schemaText]);
  return { editor, failed, ready };
}

/** Form or raw JSON for one schema. */
export function SchemaForm(props: Props) {
  const holder = useRef<HTMLDivElement>(null);
  const [raw, setRaw] = useState(false);
  const [text, setText] = useState('{}');
  const [errors, setErrors] = useState<string[]>([]);
  const [submitted, setSubmitted] = useState(false);
  const { editor, failed, ready } = useEditor(props.schema, holder, props.initial);
  const useRaw = raw || failed !== undefined;

  const switchTo = (wantRaw: boolean) => {
    if (wantRaw && editor.current) setText(JSON.stringify(editor.current.getValue(), null, 2));
    if (!wantRaw && editor.current) {
      try {
        editor.current.setValue(JSON.parse(text));
      } catch {
        /* keep the form's own value */
      }
    }
    setRaw(wantRaw);
    setErrors([]);
  };

  const submit = (event: Event) => {
    event.preventDefault();
    // The library takes a field's value on `change`, which fires when the field loses focus.
    if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
    if (useRaw) return submitRaw();
    setSubmitted(true);
    const value = editor.current?.getValue() ?? {};
    // With an argument the library validates now; without one it returns a cached, older result.
    const problems = editor.current?.validate(value) ?? [];
    editor.current?.showValidationErrors(problems);
    setErrors(problems.map((p) => `${p.path.replace(/^root\.?/, '') || '(value)'}: ${p.message}`));
    if (problems.length === 0) props.onSubmit(value as Record<string, unknown>);
  };

  const submitRaw = () => {
    try {
      const value = JSON.parse(text) as unknown;
      if (value === null || typeof value !== 'object' || Array.isArray(value))
        throw new Error('must be a JSON object');
      setErrors([]);
      props.onSubmit(value as Record<string, unknown>);
    } catch (error) {
      setErrors([`raw JSON: ${message(error)}`]);
    }
  };

  return (
    <form
      class={submitted ? 'schema-form submitted' : 'schema-form'}
      data-test={props.testId}
      // The library's messages replace the browser's own bubbles (which block the submit).
      noValidate
      data-ready={ready || useRaw ? '' : undefined}
      onSubmit={submit}
    >
      <div class="mode">
        <label>
          <input
            type="checkbox"
            checked={useRaw}
            disabled={failed !== undefined}
            onChange={(e) => switchTo(e.currentTarget.checked)}
          />
          raw JSON
        </label>
        {failed && <span class="warn">the form cannot render this schema ({failed}); edit JSON</span>}
      </div>
      <div ref={holder} hidden={useRaw} class="generated" />
      {useRaw && (
        <textarea class="raw" rows={8} value={text} onInput={(e) => setText(e.currentTarget.value)} />
      )}
      {errors.length > 0 && (
        <ul class="errors" data-test="form-errors">
          {errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      )}
      <div class="buttons">
        {/* Keeping the focus in the field keeps its message (and the layout) still under the pointer. */}
        <button
          type="submit"
          data-test="submit"
          disabled={!ready && !useRaw}
          onMouseDown={(e) => e.preventDefault()}
        >
          {props.submitLabel}
        </button>
        {props.children}
      </div>
    </form>
  );
}
