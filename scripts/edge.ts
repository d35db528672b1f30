/**
 * The edge's operations tool.
 *   edge teardown --stage <stage> [--region <region>] [--wait <minutes>]
 *     disables, waits for and deletes the stage's distribution tenants and their certificates, so that
 *     `cdk destroy` can then delete the stack's distributions and connection group (docs/deployment.md, Tear down)
 * The stage's resources are read from its stack's outputs (EdgeDistributionIds, EdgeConnectionGroupId) with the
 * default AWS credentials.
 */
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { commandLine, helpOption } from '#infra/command-line.ts';
import { ACMClient, acmCertificates, CLOUDFRONT_CERTIFICATE_REGION } from '#lib/edge/acm.ts';
import { CloudFrontClient } from '#lib/edge/cloudfront.ts';
import { type StageResources, teardownEdge } from '#lib/edge/teardown.ts';
import { fail } from './support/table.ts';

const USAGE = `Usage:
  npm run --silent edge -- teardown --stage <stage> [--region <region>] [--wait <minutes>]

Takes down what the edge made at run time, before \`cdk destroy\`: every distribution tenant of the stage (in its
connection group, on one of its distributions: another stage's tenant is never touched) is disabled, waited for
until the disabling is deployed, and deleted, then its CloudFront-managed certificate is deleted from ACM (CloudFront
leaves it there). CloudFront refuses to delete a distribution or a connection group that still has tenants, so
without this \`cdk destroy\` fails. Safe to run again; it prints what is left if the wait ran out.

Options:
  --stage <stage>       the stage (dev, prod): its stack is domains-spaces-<stage>
  --region <region>     the stack's region (default: the AWS SDK's)
  --wait <minutes>      how long to wait for the disablings to deploy (default 30)
  -h, --help            this help`;

/** The stage's edge, from its stack's outputs. */
async function stageResources(stage: string, region: string | undefined): Promise<StageResources> {
  const stackName = `domains-spaces-${stage}`;
  const client = new CloudFormationClient(region ? { region } : {});
  try {
    const { Stacks = [] } = await client.send(new DescribeStacksCommand({ StackName: stackName }));
    const outputs = new Map((Stacks[0]?.Outputs ?? []).map((output) => [output.OutputKey, output.OutputValue]));
    const distributions = outputs.get('EdgeDistributionIds') ?? outputs.get('EdgeDistributionId');
    const connectionGroupId = outputs.get('EdgeConnectionGroupId');
    if (!distributions || !connectionGroupId) {
      fail(`${stackName} has no EdgeDistributionIds and EdgeConnectionGroupId outputs: deploy this version first.`);
    }
    return { distributionIds: distributions.split(','), connectionGroupId, tenantPrefix: stackName };
  } finally {
    client.destroy();
  }
}

async function main() {
  const parsed = commandLine(USAGE, {
    allowPositionals: true,
    options: { ...helpOption, stage: { type: 'string' }, region: { type: 'string' }, wait: { type: 'string' } },
  });
  if (!parsed) return;
  const { values, positionals } = parsed;
  const [command] = positionals;
  if (command !== 'teardown') fail(`${command ? `Unknown command "${command}".` : 'No command.'}\n${USAGE}`);
  if (!values.stage || !/^[a-z][a-z0-9-]*$/.test(values.stage)) fail(`--stage is required.\n${USAGE}`);
  const waitMinutes = values.wait === undefined ? 30 : Number(values.wait);
  if (!Number.isFinite(waitMinutes) || waitMinutes < 0) fail('--wait is a number of minutes.');

  const stage = await stageResources(values.stage, values.region);
  // CloudFront is global (its API is signed in us-east-1), and so are its certificates' ACM.
  const cloudFront = new CloudFrontClient({ region: 'us-east-1' });
  const acm = new ACMClient({ region: CLOUDFRONT_CERTIFICATE_REGION });
  try {
    const result = await teardownEdge({
      cloudFront,
      certificates: acmCertificates(acm),
      stage,
      waitMs: waitMinutes * 60_000,
      log: (line) => console.log(line),
    });
    if (result.left.length > 0) {
      console.error(`Still there (run the teardown again): ${result.left.join(', ')}`);
      process.exitCode = 1;
    }
  } finally {
    cloudFront.destroy();
    acm.destroy();
  }
}

main().catch((error) => {
  console.error(`edge: ${(error as Error).message ?? error}`);
  process.exit(1);
});
