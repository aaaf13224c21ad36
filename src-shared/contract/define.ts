import type { z } from 'zod';
import type { Scope } from './scopes';

/**
 * A call: its input schema (run in main before the handler), the scope a session needs to make it,
 * and, as a phantom, its output type.
 */
export interface CallDefinition<Input extends z.ZodType, Output> {
  input: Input;
  scope: Scope;
  /** Phantom: carries the output type only. */
  output?: Output;
}

/** A main-to-renderer event: its payload type only (main is the only sender). */
export interface EventDefinition<Payload> {
  payload?: Payload;
}

export const call =
  <Output>(scope: Scope) =>
  <Input extends z.ZodType>(input: Input): CallDefinition<Input, Output> => ({ input, scope });

export const event = <Payload>(): EventDefinition<Payload> => ({});

/**
 * What one domain file declares: every channel starts with the domain's name, so two domain files
 * cannot declare the same channel (which a plain object spread would silently let win).
 */
export type DomainCalls<D extends string> = Record<`${D}:${string}`, CallDefinition<z.ZodType, unknown>>;
export type DomainEvents<D extends string> = Record<`${D}:${string}`, EventDefinition<unknown>>;
