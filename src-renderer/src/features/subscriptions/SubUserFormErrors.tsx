import type { IpcError } from '../../../../src-shared/contract';
import { ErrorMessage } from '../../shared/components/ErrorMessage';
import { fieldErrorsOf, unplacedFieldErrors } from '../../shared/field-errors';
import { SUB_USER_FIELD_ALIASES } from './sub-user-input';

/** The errors a sub-user form cannot show on one of its fields. */
export function SubUserFormErrors({ error, placed }: { error: IpcError | null; placed: string[] }) {
  if (!error) return null;
  const unplaced = unplacedFieldErrors(fieldErrorsOf(error, SUB_USER_FIELD_ALIASES), placed);
  if (error.fields && unplaced.length === 0) return null;
  return <ErrorMessage error={unplaced.length > 0 ? { ...error, message: unplaced.join(' ') } : error} />;
}
