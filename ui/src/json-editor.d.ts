// The parts of @json-editor/json-editor the app uses (the package ships no types).
declare module '@json-editor/json-editor' {
  export interface JsonEditorError {
    path: string;
    property: string;
    message: string;
  }
  export class JSONEditor {
    constructor(element: HTMLElement, options: Record<string, unknown>);
    on(event: 'ready' | 'change', handler: () => void): void;
    getValue(): unknown;
    setValue(value: unknown): void;
    validate(value?: unknown): JsonEditorError[];
    destroy(): void;
  }
}
