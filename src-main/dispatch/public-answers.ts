import type { CallChannel, PortsListView, SubUsersListView } from '../../src-shared/contract';
import type { WireTable } from '../../src-shared/contract/list-views';

/**
 * What the automation surfaces (CLI `--json`, the REST API, the MCP server) answer for a channel.
 * Most channels answer the contract's value as it is; a list the window receives as a lean table
 * (`{columns, rows}`, its own transport) is answered as an array of objects with the field names
 * below, so that a script reads `.[0].id`.
 */

type JsonSchema = Record<string, unknown>;

/** One row of a `WireTable` as an object: each column's name with its value's type. */
export type RowObject<Columns extends readonly string[], Values extends readonly unknown[]> = {
  [
    Index in keyof Columns as Index extends `${number}` ? Columns[Index] & string : never
  ]: Index extends keyof Values ? Values[Index] : never;
};

/**
 * A table's rows as objects keyed by its columns: the public shape of a list. (Here rather than in
 * the contract: the command line's help must not load zod, which the contract modules import.)
 */
export function rowObjectsOf<Columns extends readonly string[], Values extends readonly unknown[]>(
  table: WireTable<Columns, Values>,
): RowObject<Columns, Values>[] {
  return table.rows.map(
    (row) =>
      Object.fromEntries(table.columns.map((name, index) => [name, row[index] ?? null])) as RowObject<
        Columns,
        Values
      >,
  );
}

interface PublicField {
  name: string;
  schema: JsonSchema;
}

const text = (description: string): JsonSchema => ({ type: 'string', description });
const isoDate = (description: string): JsonSchema => ({ type: 'string', format: 'date-time', description });

/** `ports list --json`, `GET /v1/ports`, MCP `ports_list`: one object per port (no credentials). */
const PORT_LIST_FIELDS: readonly PublicField[] = [
  { name: 'id', schema: text('The port’s id (`port_…`), for every other ports command.') },
  { name: 'label', schema: text('The name given to the port.') },
  { name: 'status', schema: text('active, provisioning or expired (a new value may come).') },
  { name: 'country', schema: text('Two-letter country code of the modem, e.g. US.') },
  { name: 'city', schema: { type: ['string', 'null'], description: 'The modem’s city, or null.' } },
  { name: 'carrierName', schema: text('The mobile carrier.') },
  { name: 'networkType', schema: text('4G or 5G.') },
  { name: 'currentIp', schema: text('The exit IP now.') },
  { name: 'ipChangedAt', schema: isoDate('When the IP last changed.') },
  { name: 'expiresAt', schema: isoDate('When the port expires unless renewed.') },
  {
    name: 'autoRenew',
    schema: { type: 'boolean', description: 'Whether the port renews itself at its expiry.' },
  },
  { name: 'rotationMode', schema: text('The service’s automatic rotation: interval or manual.') },
  {
    name: 'rotationMinutes',
    schema: {
      type: ['integer', 'null'],
      description: 'Minutes between automatic rotations (interval mode).',
    },
  },
];

/** `subs subusers list --json`, `GET /v1/subscriptions/{id}/sub-users`, MCP: one object per sub-user. */
const SUB_USER_LIST_FIELDS: readonly PublicField[] = [
  { name: 'id', schema: text('The sub-user’s id.') },
  { name: 'label', schema: text('The name given to the sub-user.') },
  { name: 'username', schema: text('Its proxy username (the password is never listed).') },
  {
    name: 'trafficLimitBytes',
    schema: { type: ['integer', 'null'], description: 'Its traffic cap in bytes, or null for none.' },
  },
  { name: 'trafficUsedBytes', schema: { type: 'integer', description: 'Traffic used, in bytes.' } },
  { name: 'enabled', schema: { type: 'boolean', description: 'Whether its credentials work.' } },
  { name: 'createdAt', schema: isoDate('When it was created.') },
];

const arrayOf = (fields: readonly PublicField[], description: string): JsonSchema => ({
  type: 'array',
  description,
  items: {
    type: 'object',
    required: fields.map((field) => field.name),
    properties: Object.fromEntries(fields.map((field) => [field.name, field.schema])),
  },
});

interface PublicShape {
  fields: readonly PublicField[];
  schema: JsonSchema;
  of(value: unknown): unknown;
}

const PUBLIC_SHAPES: Partial<Record<CallChannel, PublicShape>> = {
  'ports:list': {
    fields: PORT_LIST_FIELDS,
    schema: arrayOf(PORT_LIST_FIELDS, 'The mobile ports, one object each.'),
    of: (value) => rowObjectsOf(value as PortsListView),
  },
  'subscriptions:subUsers': {
    fields: SUB_USER_LIST_FIELDS,
    schema: arrayOf(SUB_USER_LIST_FIELDS, 'The sub-users of the subscription, one object each.'),
    of: (value) => rowObjectsOf(value as SubUsersListView),
  },
};

/** The channel's value as the automation surfaces answer it. */
export function publicAnswer(channel: CallChannel, value: unknown): unknown {
  const shape = PUBLIC_SHAPES[channel];
  return shape ? shape.of(value) : value;
}

/** The JSON Schema of a public answer, where the surfaces reshape it (null: the contract's value). */
export function publicSchemaOf(channel: CallChannel): JsonSchema | null {
  return PUBLIC_SHAPES[channel]?.schema ?? null;
}

/** The documented field names of a reshaped list (null: the contract's value, whatever its keys). */
export function publicFieldsOf(channel: CallChannel): readonly string[] | null {
  return PUBLIC_SHAPES[channel]?.fields.map((field) => field.name) ?? null;
}
