import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { auditFilter, RawInput, text } from '../api/query-params';
import { ConsoleSessions } from '../auth/console-sessions';
import { ConsoleViews } from '../console-views';
import { AuditTrail } from '../workspace/audit-trail';
import { auditPage } from './audit-page';
import { PageResponder } from './page-replies';

/** The audit trail's page: every change to the workspace, newest first, filtered by resource and time. */
@Controller('audit')
export class AuditPageController {
  private readonly pages: PageResponder;

  constructor(
    private readonly audit: AuditTrail,
    private readonly views: ConsoleViews,
    sessions: ConsoleSessions,
  ) {
    this.pages = new PageResponder(sessions, views);
  }

  @Get()
  list(@Query() query: RawInput, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.pages.show(request, reply, () => {
      const shown = {
        kind: text(query, 'kind'),
        id: text(query, 'id'),
        from: text(query, 'from'),
        to: text(query, 'to'),
      };
      return auditPage(this.audit.list(auditFilter(query)), shown, this.views.sources());
    });
  }
}
