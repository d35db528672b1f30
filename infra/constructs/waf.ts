/**
 * The stage's AWS WAF web ACL: per-key and per-IP rate limits answered 429 in the API's JSON error contract,
 * AWS managed rules tuned to this API's valid requests, and logs that never hold an API key.
 */
import { ArnFormat, Duration, Stack } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import { Metric, type MetricOptions } from 'aws-cdk-lib/aws-cloudwatch';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { CfnLoggingConfiguration, CfnWebACL, CfnWebACLAssociation } from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { gatewayResponseBody, gatewayResponses } from '#lib/http/gateway-responses.ts';
import { CORS_EXPOSE_HEADERS } from '#lib/http/headers.ts';
import { RATE_LIMIT_WINDOW_SECONDS } from '../rate-limits.ts';
import { type StageConfig, serviceName } from '../stages.ts';

export type ApiFirewallProps = { config: StageConfig; stage: Stage };

/** The header that carries the key: rate-limited per value, and kept out of logs and samples. */
const AUTHORIZATION = 'authorization';
const TOO_MANY_REQUESTS = 'too-many-requests';

/**
 * Core rule set rules that would block valid requests of this API; they count (and are logged) instead.
 * - SizeRestrictions_BODY blocks bodies over 8 KB; the API accepts 64 KiB (and answers 413 above).
 * - GenericRFI_BODY, GenericLFI_BODY and EC2MetaDataSSRF_BODY match URLs with an IP address, `../` segments or
 *   the instance metadata address, all valid `index_page`/`not_found_page` values (e.g. `http://192.0.2.1/?a=http://y`).
 *   The service only stores these URLs and returns them; it never fetches or opens them.
 * - NoUserAgent_HEADER: API clients are scripts, and some HTTP libraries send no User-Agent.
 */
export const countedCoreRules = [
  'SizeRestrictions_BODY',
  'GenericRFI_BODY',
  'GenericLFI_BODY',
  'EC2MetaDataSSRF_BODY',
  'NoUserAgent_HEADER',
] as const;

/**
 * How the per-key rule folds the `Authorization` value before counting, so that a key is one budget whatever the
 * spelling of its header: the scheme in any case (`bearer`, `Bearer`, `BEARER`: 64 spellings of `Bearer` would
 * otherwise be 64 budgets) and any run of white space as one space (`Bearer  <key>`, `Bearer\t<key>`). WAF
 * cannot take the key out of the header, only transform the whole value: the key is lower-cased too, so keys
 * that differ only in case would share a budget. Keys are 43 random base64url characters after `dsk_`: two
 * real keys never differ only in case, and a client that knows a key up to case knows it. Nor can WAF drop the
 * scheme: a key sent without `Bearer` counts apart (the authorizer refuses it: 401). The local gateway counts
 * the key itself (`infra/local/rate-limit.ts`, `rateLimitKey`).
 */
export const keyTransformations: CfnWebACL.TextTransformationProperty[] = [
  { priority: 0, type: 'COMPRESS_WHITE_SPACE' },
  { priority: 1, type: 'LOWERCASE' },
];

export class ApiFirewall extends Construct {
  readonly webAcl: CfnWebACL;
  readonly logGroup: LogGroup;
  /** The web ACL's CloudWatch metric name (its `WebACL` dimension); each rule's is `<this>-<rule name>`. */
  readonly metricName: string;

  constructor(scope: Construct, id: string, { config, stage }: ApiFirewallProps) {
    super(scope, id);
    const name = `${serviceName}-${config.stage}`;
    this.metricName = name;
    const visibility = (metric: string): CfnWebACL.VisibilityConfigProperty => ({
      metricName: metric,
      cloudWatchMetricsEnabled: true,
      sampledRequestsEnabled: true,
    });
    const throttled: CfnWebACL.RuleActionProperty = {
      block: {
        customResponse: {
          responseCode: gatewayResponses.THROTTLED.statusCode,
          customResponseBodyKey: TOO_MANY_REQUESTS,
          // A blocked client stays blocked while its rate over the window is above the limit. WAF answers before
          // API Gateway: its headers are fixed, so there is no request id to send, and with a list of origins
          // no `Origin` to compare (a page of a listed origin then sees a failed request, not the 429).
          responseHeaders: [
            { name: 'Retry-After', value: String(RATE_LIMIT_WINDOW_SECONDS) },
            ...(config.corsAllowedOrigins === '*'
              ? [
                  { name: 'Access-Control-Allow-Origin', value: '*' },
                  { name: 'Access-Control-Expose-Headers', value: CORS_EXPOSE_HEADERS.join(', ') },
                ]
              : []),
          ],
        },
      },
    };
    const rateRule = (
      rule: string,
      priority: number,
      limit: number,
      aggregation: Pick<CfnWebACL.RateBasedStatementProperty, 'aggregateKeyType' | 'customKeys'>,
    ): CfnWebACL.RuleProperty => ({
      name: rule,
      priority,
      action: throttled,
      statement: { rateBasedStatement: { limit, evaluationWindowSec: RATE_LIMIT_WINDOW_SECONDS, ...aggregation } },
      visibilityConfig: visibility(`${name}-${rule}`),
    });
    const managedRule = (
      group: string,
      priority: number,
      countedRules: readonly string[] = [],
    ): CfnWebACL.RuleProperty => ({
      name: group,
      priority,
      overrideAction: { none: {} },
      statement: {
        managedRuleGroupStatement: {
          vendorName: 'AWS',
          name: group,
          ...(countedRules.length > 0 && {
            ruleActionOverrides: countedRules.map((rule) => ({ name: rule, actionToUse: { count: {} } })),
          }),
        },
      },
      visibilityConfig: visibility(`${name}-${group}`),
    });

    this.webAcl = new CfnWebACL(this, 'web-acl', {
      name,
      description: `Rate limits and managed rules in front of the ${config.stage} API stage`,
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility(name),
      customResponseBodies: {
        [TOO_MANY_REQUESTS]: {
          contentType: 'APPLICATION_JSON',
          content: JSON.stringify(gatewayResponseBody('THROTTLED')),
        },
      },
      rules: [
        // Rate rules first, so that every request counts towards them. A request without the header is not
        // counted per key (WAF skips it); the per-IP rule bounds those, and API Gateway answers them 401.
        rateRule('per-key-rate', 0, config.rateLimit.perKeyPerMinute, {
          aggregateKeyType: 'CUSTOM_KEYS',
          customKeys: [{ header: { name: AUTHORIZATION, textTransformations: keyTransformations } }],
        }),
        rateRule('per-ip-rate', 1, config.rateLimit.perIpPerMinute, { aggregateKeyType: 'IP' }),
        managedRule('AWSManagedRulesAmazonIpReputationList', 2),
        managedRule('AWSManagedRulesCommonRuleSet', 3, countedCoreRules),
        managedRule('AWSManagedRulesKnownBadInputsRuleSet', 4),
      ],
      // Inspect the whole body the API accepts (64 KiB) instead of the first 16 KB; only requests with a
      // larger body than 16 KB are charged extra.
      associationConfig: { requestBody: { API_GATEWAY: { defaultSizeInspectionLimit: 'KB_64' } } },
      // Keys never reach logs, sampled requests or rate-based rule details (which name the aggregation value).
      dataProtectionConfig: {
        dataProtections: [
          { field: { fieldType: 'SINGLE_HEADER', fieldKeys: [AUTHORIZATION] }, action: 'SUBSTITUTION' },
        ],
      },
    });

    new CfnWebACLAssociation(this, 'association', { resourceArn: stage.stageArn, webAclArn: this.webAcl.attrArn });

    // WAF delivers only to log groups whose name starts with `aws-waf-logs-`.
    this.logGroup = new LogGroup(this, 'logs', {
      logGroupName: `aws-waf-logs-${name}`,
      retention: config.logRetention,
      removalPolicy: config.removalPolicy,
    });
    const logGroupArn = Stack.of(this).formatArn({
      service: 'logs',
      resource: 'log-group',
      resourceName: this.logGroup.logGroupName,
      arnFormat: ArnFormat.COLON_RESOURCE_NAME,
    });
    new CfnLoggingConfiguration(this, 'logging', {
      resourceArn: this.webAcl.attrArn,
      logDestinationConfigs: [logGroupArn],
      // These two properties are untyped JSON in CDK, written as CloudFormation spells them.
      redactedFields: [{ singleHeader: { Name: AUTHORIZATION } }],
      // Blocked and counted requests only: allowed ones are in the API's access logs already, and logging
      // every request would cost more than the API itself.
      loggingFilter: {
        DefaultBehavior: 'DROP',
        Filters: [
          {
            Behavior: 'KEEP',
            Requirement: 'MEETS_ANY',
            Conditions: [{ ActionCondition: { Action: 'BLOCK' } }, { ActionCondition: { Action: 'COUNT' } }],
          },
        ],
      },
    });
  }

  /** Requests blocked by the web ACL, all rules (`rule` 'ALL') or one rule by name. */
  metricBlockedRequests(rule = 'ALL', options: MetricOptions = {}): Metric {
    return new Metric({
      namespace: 'AWS/WAFV2',
      metricName: 'BlockedRequests',
      dimensionsMap: {
        WebACL: this.metricName,
        Region: Stack.of(this).region,
        Rule: rule === 'ALL' ? rule : `${this.metricName}-${rule}`,
      },
      statistic: 'Sum',
      period: Duration.minutes(1),
      ...options,
    });
  }
}
