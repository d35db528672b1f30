/**
 * What `npm start` runs beside the gateway (infra/local/start.ts), for a section that measures the API with it
 * running (section 7, contention): the stage's edge on a local CloudFront, the webhook worker, and the follower
 * of every owner's change feed handing each event to both, on the given DynamoDB endpoint.
 */
import { followChanges } from '#infra/local/edge-feed.ts';
import { startStageEdge } from '#infra/local/stage-edge.ts';
import { startWebhookWorker } from '#infra/local/webhook-worker.ts';
import { createDb } from '#lib/data/dynamodb.ts';
import { loadWebhookConfig } from '#lib/webhooks/settings.ts';

/** The follower's poll, as `npm start` sets it. */
export const BACKGROUND_POLL_MS = 500;

/**
 * What `npm start` runs beside the gateway (infra/local/start.ts), on the run's DynamoDB (the harness): the
 * stage's edge on a local CloudFront, the webhook worker, and the follower of every owner's change feed handing
 * each event to both. Its calls are counted by command (SDK middleware).
 */
export async function startBackground(endpoint: string, tag: string) {
  const config = {
    ...loadWebhookConfig({
      ...process.env,
      DYNAMODB_ENDPOINT: endpoint,
      EDGE_HOSTNAME: process.env.EDGE_HOSTNAME || 'edge.localhost',
      WEBHOOK_LOCAL_LOOPBACK: 'true',
    }),
  };
  const db = createDb(config);
  const calls: Record<string, number> = {};
  db.client.middlewareStack.add(
    (next, context) => async (args) => {
      const command = String(context.commandName).replace(/Command$/, '');
      calls[command] = (calls[command] ?? 0) + 1;
      return next(args);
    },
    { step: 'initialize', name: 'count-background-calls' },
  );
  const stageEdge = await startStageEdge({ config, tenantPrefix: `bench-${tag}` });
  const worker = startWebhookWorker({ db, config });
  const follower = followChanges({
    db,
    edge: stageEdge.edge,
    onEvent: worker.onEvent,
    onPosition: worker.onPosition,
    intervalMs: BACKGROUND_POLL_MS,
  });
  return {
    calls,
    stop: async () => {
      await follower.stop();
      await worker.stop();
      await stageEdge.close();
      db.client.destroy();
    },
  };
}
