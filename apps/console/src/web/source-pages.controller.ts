import { Body, Controller, Get, HttpException, Param, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RawInput } from '../api/query-params';
import { ConsoleSessions } from '../auth/console-sessions';
import { ConsoleSettings } from '../console-settings';
import { ConsoleViews } from '../console-views';
import { WorkspaceAdmin } from '../workspace/workspace-admin';
import { DeletionPages, ifMatchOf, messageOf, PageDeletion, PageResponder, problemsOf } from './page-replies';
import {
  newSourcePage,
  readSourceForm,
  SourceForm,
  sourceBody,
  sourcesPage,
  writeKeyPage,
} from './source-pages';

/** Refusals the new-source form shows beside the values typed, so nothing has to be typed again: the workspace topic out of reach (503) among them. */
const FORM_REFUSALS = new Set([400, 409, 503]);

/**
 * The sources' setup pages: list, create, rotate and retire write keys, delete (the routes
 * DeletionPages shares). A write key is
 * shown in full only in the answer to the form that made it.
 */
@Controller('sources')
export class SourcePagesController extends DeletionPages {
  protected readonly pages: PageResponder;
  protected readonly deletion: PageDeletion = {
    kind: 'source',
    listPath: '/sources',
    consequence:
      'Its write keys stop working at once: calls sent with them get 401. A source still connected to a destination cannot be deleted.',
    revisionOf: (id, holder) => this.admin.getSource(id, holder).revision,
    remove: (id, ifMatch, holder) => this.admin.deleteSource(id, ifMatch, holder),
  };

  constructor(
    private readonly admin: WorkspaceAdmin,
    private readonly views: ConsoleViews,
    private readonly settings: ConsoleSettings,
    sessions: ConsoleSessions,
  ) {
    super();
    this.pages = new PageResponder(sessions, views);
  }

  @Get()
  list(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.pages.show(request, reply, (canWrite, holder) =>
      sourcesPage(this.admin.listSources(holder), canWrite, this.views.sources()),
    );
  }

  @Get('new')
  newForm(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.pages.forAdmin(request, reply, async () => ({
      status: 200,
      page: newSourcePage(readSourceForm({}), this.views.sources()),
    }));
  }

  @Post()
  create(@Body() body: RawInput, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.pages.forAdmin(request, reply, async (holder) => {
      const form = readSourceForm(body);
      try {
        const created = await this.admin.createSource(sourceBody(form), holder);
        return {
          status: 201,
          page: writeKeyPage(created, 'created', this.settings.ingestUrl, this.views.sources()),
        };
      } catch (error) {
        return this.refusedForm(form, error);
      }
    });
  }

  @Post(':id/rotate')
  rotate(
    @Param('id') id: string,
    @Body() body: RawInput,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    return this.pages.forAdmin(request, reply, async (holder) => {
      const rotated = await this.admin.rotateWriteKey(id, ifMatchOf(body), undefined, holder);
      return {
        status: 200,
        page: writeKeyPage(rotated, 'rotated', this.settings.ingestUrl, this.views.sources()),
      };
    });
  }

  @Post(':id/retire')
  retire(
    @Param('id') id: string,
    @Body() body: RawInput,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    return this.pages.forAdmin(request, reply, async (holder) => {
      await this.admin.retireWriteKey(id, ifMatchOf(body), holder);
      return { redirect: '/sources' };
    });
  }

  private refusedForm(form: SourceForm, error: unknown) {
    if (!(error instanceof HttpException) || !FORM_REFUSALS.has(error.getStatus())) throw error;
    const refused = { message: messageOf(error), problems: problemsOf(error) };
    return { status: error.getStatus(), page: newSourcePage(form, this.views.sources(), refused) };
  }
}
