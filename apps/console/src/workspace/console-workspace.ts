import { BeforeApplicationShutdown, Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import type { Logger } from 'pino';
import { parse as parseYaml } from 'yaml';
import { checkWorkspace, ConfigError } from '@switchyard/config';
import { TopicNames } from '@switchyard/contracts';
import { KafkaClient } from '@switchyard/kafka';
import { ApiTokens } from '@switchyard/service';
import { Readiness } from '@switchyard/telemetry';
import { WorkspaceTopic } from '@switchyard/workspace';
import { ConsoleSettings } from '../console-settings';
import { KAFKA_CLIENT, LOGGER, TOPICS } from '../console.tokens';
import { AuditFeed } from './audit-feed';
import { AuditTrail } from './audit-trail';
import { KafkaWorkspaceLog } from './kafka-workspace-log';
import { WorkspaceAdmin } from './workspace-admin';

const SEEDER = { name: 'seed', role: 'admin' as const };

/** The named tokens: ADMIN_TOKEN and the file API_TOKENS_FILE names; a bad file stops start-up, naming it. */
export function loadApiTokens(settings: ConsoleSettings): ApiTokens {
  const path = settings.apiTokensFile;
  try {
    return ApiTokens.from(settings.adminToken, path ? readFileSync(path, 'utf8') : '');
  } catch (error) {
    throw new ConfigError(`API_TOKENS_FILE ${path}: ${(error as Error).message}`);
  }
}

/**
 * The console's side of a topic-backed workspace: it fills the audit trail from the audit
 * topic, and seeds an empty workspace from WORKSPACE_SEED_FILE (the demo's zero-step setup).
 */
@Injectable()
export class ConsoleWorkspace implements OnModuleInit, BeforeApplicationShutdown {
  private readonly audit: AuditFeed;

  constructor(
    private readonly workspace: WorkspaceTopic,
    private readonly admin: WorkspaceAdmin,
    private readonly log: KafkaWorkspaceLog,
    private readonly settings: ConsoleSettings,
    trail: AuditTrail,
    @Inject(KAFKA_CLIENT) kafka: KafkaClient,
    @Inject(TOPICS) topics: TopicNames,
    @Inject(LOGGER) private readonly logger: Logger,
    readiness: Readiness,
  ) {
    this.audit = new AuditFeed(kafka, topics.workspaceAudit, trail, logger);
    readiness.register('audit', () => this.audit.ready);
  }

  async onModuleInit(): Promise<void> {
    await this.audit.start();
    if (this.settings.workspaceSeedFile) await this.seed(this.settings.workspaceSeedFile);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.audit.stop();
    await this.log.stop();
  }

  /** Applies the file when the workspace topic holds nothing yet; a console started beside it may win the race. */
  private async seed(path: string): Promise<void> {
    await this.log.caughtUp();
    const { sources, destinations } = this.workspace.config;
    if (sources.length > 0 || destinations.length > 0) return;
    const plain = parseYaml(readFileSync(path, 'utf8')) as {
      sources: Record<string, unknown>[];
      destinations: Record<string, unknown>[];
    };
    const check = checkWorkspace(plain);
    if (!check.value)
      throw new ConfigError(`WORKSPACE_SEED_FILE ${path}:\n  - ${check.problems.join('\n  - ')}`);
    try {
      for (const source of plain.sources) await this.admin.createSource(source, SEEDER);
      for (const destination of plain.destinations) await this.admin.createDestination(destination, SEEDER);
    } catch (error) {
      // Another console seeded first: its records are the workspace now.
      this.logger.warn({ reason: (error as Error).message }, 'workspace seed stopped');
      return;
    }
    this.logger.info(
      { path, sources: plain.sources.length, destinations: plain.destinations.length },
      'workspace seeded',
    );
  }
}
