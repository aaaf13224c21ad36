import type { z } from 'zod';

/** A call: its input schema (run in main before the handler) and, as a phantom, its output type. */
export interface CallDefinition<Input extends z.ZodType, Output> {
  input: Input;
  /** Phantom: carries the output type only. */
  output?: Output;
}

/** A main-to-renderer event: its payload type only (main is the only sender). */
export interface EventDefinition<Payload> {
  payload?: Payload;
}

export const call =
  <Output>() =>
  <Input extends z.ZodType>(input: Input): CallDefinition<Input, Output> => ({ input });

export const event = <Payload>(): EventDefinition<Payload> => ({});

/**
 * What one domain file declares: every channel starts with the domain's name, so two domain files
 * cannot declare the same channel (which a plain object spread would silently let win).
 */
export type DomainCalls<D extends string> = Record<`${D}:${string}`, CallDefinition<z.ZodType, unknown>>;
export type DomainEvents<D extends string> = Record<`${D}:${string}`, EventDefinition<unknown>>;
