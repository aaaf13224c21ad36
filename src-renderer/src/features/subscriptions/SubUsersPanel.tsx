import type { Subscription } from '../../../../src-shared/api-types';
import { AsyncContent } from '../../shared/components/AsyncContent';
import { useLoadable } from '../../shared/loadable-slice';
import { SubUsersTable } from './SubUsersTable';
import { limitText } from './sub-user-input';
import { subUserLists, useSubscriptionsStore } from './subscriptions-store';

export function SubUsersPanel({ subscription }: { subscription: Subscription }) {
  const { loadable, retry } = useLoadable(useSubscriptionsStore, subUserLists, subscription.id);
  const limit = loadable?.data ? limitText(loadable.data.limit) : null;
  return (
    <div className="stack">
      <p className="muted">
        {loadable?.data ? `${loadable.data.rows.length} sub-users` : null}
        {limit ? ` · ${limit}` : null}
      </p>
      <AsyncContent loadable={loadable} what="sub-users" onRetry={retry} isEmpty={() => false}>
        {(view) => <SubUsersTable subscription={subscription} subUsers={view.rows} />}
      </AsyncContent>
    </div>
  );
}
