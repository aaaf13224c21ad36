import { describe, expect, it } from 'vitest';
import { fieldErrorsOf, unplacedFieldErrors } from '../../../src-renderer/src/shared/field-errors';

describe('field errors', () => {
  it('maps main’s field names to the form’s and keeps the first message per field', () => {
    const errors = fieldErrorsOf(
      {
        code: 'invalid_input',
        message: 'x',
        fields: [
          { field: 'key', message: 'Paste your API key' },
          { field: 'key', message: 'second' },
          { field: 'other', message: 'Other problem' },
          { field: 'input', message: 'Whole input is wrong' },
        ],
      },
      { key: 'apiKey' },
    );
    expect(errors).toEqual({
      apiKey: 'Paste your API key',
      other: 'Other problem',
      input: 'Whole input is wrong',
    });
    expect(unplacedFieldErrors(errors, ['apiKey'])).toEqual(['other: Other problem', 'Whole input is wrong']);
    expect(fieldErrorsOf(null)).toEqual({});
  });
});
