/**
 * The owner of the background jobs, reduced to alert delivery: opens the queue in the given
 * database, starts the sending job on the real clock and prints `drained` once nothing waits.
 * The kill -9 test runs it as a child process and kills it mid-send.
 */
import { AlertDeliveryService } from '../../../../src-main/core/alert-delivery/alert-delivery-service';
import { channelSecretAccount } from '../../../../src-main/core/alert-delivery/channel-factory';
import { DeliveryStore } from '../../../../src-main/core/alert-delivery/delivery-store';
import { systemClock } from '../../../../src-main/core/runtime/clock';
import { SessionSecretStore } from '../../../../src-main/core/secrets/session-secret-store';

async function main(): Promise<void> {
  const [databasePath = '', channelId = ''] = process.argv.slice(2);
  const secrets = new SessionSecretStore();
  await secrets.set(channelSecretAccount(channelId), process.env.ALERT_TEST_SECRET ?? '');
  const service = new AlertDeliveryService({
    store: DeliveryStore.open(databasePath),
    clock: systemClock,
    secrets: () => secrets,
    ownsJobs: () => true,
  });
  await service.job.start('owner');
  const timer = setInterval(() => {
    if (service.nextDue() !== null) return;
    clearInterval(timer);
    process.stdout.write('drained\n');
    void Promise.resolve(service.job.stop('done')).then(() => process.exit(0));
  }, 20);
}

void main();
