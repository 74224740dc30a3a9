// Types derived from the model classes Wails generates (wailsjs/go/models.ts): the
// data a model's JSON carries, and refinements of it checked against the model.

/** Data is a generated model class as the JSON carries it: its fields, nested models
 * as data too, without the class's methods. The generator marks a field optional
 * both for omitempty (absent) and for a Go pointer (null): such fields are either. */
export type Data<T> = T extends (infer E)[] ? Data<E>[] : T extends object ? Fields<T> : T;
type FieldKeys<T> = { [K in keyof T]-?: T[K] extends (...args: never[]) => unknown ? never : K }[keyof T];
type OptionalKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? K : never }[keyof T];
type Fields<T> = { [K in Exclude<FieldKeys<T>, OptionalKeys<T>>]: Data<T[K]> } & { [K in FieldKeys<T> & OptionalKeys<T>]?: Data<T[K]> | null };

/** Loose is anything of T's shape, any field missing or null: what a refinement must
 * fit. A number[] fits anything: it may be a json.RawMessage (any JSON), which the
 * generator cannot tell from a []int. */
export type Loose<T> = T extends number[] ? unknown : T extends (infer E)[] ? Loose<E>[] : T extends object ? { [K in keyof T]?: Loose<T[K]> | null } : T;
/** Narrowing checks a refinement: every field it names is one of G's, of a type that fits G's. */
type Narrowing<G, R> = { [K in keyof R]: K extends keyof G ? (R[K] extends Loose<G[K]> | null | undefined ? R[K] : never) : never };
/** Refine is the model G with the fields R says more about than the generator can: a
 * string that is one of a few values, a Go time (generated as any) that is a string,
 * a json.RawMessage (generated as number[]) that is any JSON, a nil Go slice that is
 * null, or a field whose model was refined itself. */
export type Refine<G, R extends Narrowing<G, R>> = Omit<G, keyof R> & R;
