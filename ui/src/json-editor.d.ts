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
  export class JSONEditor {
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
