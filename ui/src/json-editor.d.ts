// The parts of @json-editor/json-editor the app uses (the package ships no types).
declare module '@json-editor/json-editor' {
  export interface JsonEditorError {
    path: string;
    property: string;
    message: string;
  }
  /** One field's editor. */
  export interface FieldEditor {
    is_dirty: boolean;
    showValidationErrors(errors: JsonEditorError[]): void;
  }
  /** A field editor class of the library's registry (`JSONEditor.defaults.editors`). */
  export interface EditorClass {
    new (...args: never[]): { schema: Record<string, unknown>; getDefault(): unknown };
    /** Set on the app's own subclasses (schema-form.tsx), so they are installed once. */
    defaultsFromSchema?: boolean;
  }
  export class JSONEditor {
    /** The library's registries; `editors` maps a type or format to its editor class. */
    static defaults: { editors: Record<string, EditorClass> };
    constructor(element: HTMLElement, options: Record<string, unknown>);
    /** Settles when the schema is loaded and the form built; rejects when it cannot be. */
    readonly promise: Promise<void>;
    getEditor(path: string): FieldEditor | null;
    /** Shows these errors at their fields, marking every field as touched. */
    showValidationErrors(errors: JsonEditorError[]): void;
    on(event: 'ready' | 'change', handler: () => void): void;
    getValue(): unknown;
    setValue(value: unknown): void;
    validate(value?: unknown): JsonEditorError[];
    destroy(): void;
  }
}
