import { AsyncContent } from '../../shared/components/AsyncContent';
import { useCoins } from './catalog-hooks';

/** Accepted coins and their networks, as the top-up wizard will offer them. */
export function CoinsView() {
  const { loadable, retry } = useCoins();
  return (
    <AsyncContent
      loadable={loadable}
      what="coins"
      onRetry={retry}
      empty={
        <div className="empty">
          <p>The service lists no coins right now, so top-ups cannot be paid. Ask again later.</p>
          <button type="button" className="button" onClick={retry}>
            Ask again
          </button>
        </div>
      }
    >
      {(coins) => (
        <div className="table-wrap">
          <table className="table" aria-label="Coins and networks">
            <thead>
              <tr>
                <th scope="col">Coin</th>
                <th scope="col">Network</th>
                <th scope="col" className="numeric">
                  Confirmations
                </th>
                <th scope="col" className="numeric">
                  Estimated time
                </th>
                <th scope="col">Memo</th>
              </tr>
            </thead>
            <tbody>
              {coins.flatMap((coin) =>
                coin.networks.length === 0
                  ? [
                      <tr key={coin.code}>
                        <th scope="row">
                          {coin.name} <span className="code">{coin.code}</span>
                        </th>
                        <td colSpan={4} className="muted">
                          No networks
                        </td>
                      </tr>,
                    ]
                  : coin.networks.map((network, index) => (
                      <tr
                        key={`${coin.code}-${network.id}`}
                        className={index === 0 ? 'group-start' : undefined}
                      >
                        <th scope="row">
                          {coin.name} <span className="code">{coin.code}</span>
                        </th>
                        <td title={`Network id: ${network.id}`}>
                          {network.name}
                          <span className="named__id">{network.id}</span>
                        </td>
                        <td className="numeric">{network.confirmationsRequired}</td>
                        <td className="numeric">
                          {network.estimatedMinutes === null ? (
                            <span className="muted">unknown</span>
                          ) : (
                            `≈ ${network.estimatedMinutes} min`
                          )}
                        </td>
                        <td>{network.memoRequired ? 'Required' : 'No'}</td>
                      </tr>
                    )),
              )}
            </tbody>
          </table>
        </div>
      )}
    </AsyncContent>
  );
}
