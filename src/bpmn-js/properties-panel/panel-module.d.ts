/**
 * bpmn-js-properties-panel and @bpmn-io/properties-panel ship no types. This declares the little
 * of them the provider calls (entry components and `useService`); entries return preact nodes,
 * which the provider only passes back to the panel, so they are `unknown` here.
 */
declare module "@bpmn-io/properties-panel" {
  /** Props shared by the entry components. */
  interface EntryProps<T> {
    readonly element: unknown;
    readonly id: string;
    readonly label: string;
    readonly description?: string;
    readonly getValue: (element: unknown) => T;
    readonly setValue: (value: T, error?: string | null) => void;
  }

  /** A text input; `validate` returns the error shown under it, or `null`. */
  export function TextFieldEntry(
    props: EntryProps<string> & {
      readonly debounce: (fn: (value: string) => void) => (value: string) => void;
      readonly validate?: (value: string) => string | null;
    },
  ): unknown;

  /** A select. */
  export function SelectEntry(
    props: EntryProps<string> & {
      readonly getOptions: (
        element: unknown,
      ) => readonly { readonly value: string; readonly label: string }[];
    },
  ): unknown;

  /** A checkbox. */
  export function CheckboxEntry(props: EntryProps<boolean>): unknown;

  /** Whether an entry's DOM node shows a value (the group's "edited" dot). */
  export function isTextFieldEntryEdited(node: unknown): boolean;
  /** See {@link isTextFieldEntryEdited}. */
  export function isSelectEntryEdited(node: unknown): boolean;
  /** See {@link isTextFieldEntryEdited}. */
  export function isCheckboxEntryEdited(node: unknown): boolean;
  /** The group component the panel renders groups with. */
  export function Group(props: unknown): unknown;
}

declare module "bpmn-js-properties-panel" {
  /** A service of the modeller, from within an entry component. */
  export function useService(name: string, strict?: boolean): unknown;
}
