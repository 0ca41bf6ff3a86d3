import { Body, Controller, Get, HttpException, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TokenHolder } from '@switchyard/service';
import { attemptFilter, limit, RawInput, text } from '../api/query-params';
import { ConsoleSessions } from '../auth/console-sessions';
import { ConsoleViews } from '../console-views';
import { ResourceView, WorkspaceAdmin } from '../workspace/workspace-admin';
import { invalid } from '../workspace/workspace-errors';
import {
  DestinationForm,
  destinationBody,
  destinationFormOf,
  emptyDestinationForm,
  readDestinationForm,
} from './destination-form';
import {
  destinationFormPage,
  destinationSetup,
  destinationsPage,
  FormMode,
  testResultsPage,
} from './destination-pages';
import { DestinationTester } from './destination-tester';
import {
  DeletionPages,
  ifMatchOf,
  messageOf,
  PageAnswer,
  PageDeletion,
  PageResponder,
  problemsOf,
} from './page-replies';
import { destinationPage } from './pages';

/** Refusals the form shows beside the values posted, so nothing has to be typed again: the workspace topic out of reach (503) among them. */
const FORM_REFUSALS = new Set([400, 409, 412, 503]);

/** Attempts a destination's page lists. */
const ATTEMPTS_SHOWN = 200;

/**
 * The Destinations pages: the list with each one's health, a destination's setup and attempts,
 * its form (create and edit), delete (the routes DeletionPages shares), and the test event.
 */
@Controller('destinations')
export class DestinationPagesController extends DeletionPages {
  protected readonly pages: PageResponder;
  protected readonly deletion: PageDeletion = {
    kind: 'destination',
    listPath: '/destinations',
    consequence:
      'Calls stop being forwarded to its URLs at once; retries still waiting go to the dead-letter topic.',
    revisionOf: (id) => this.admin.getDestination(id).revision,
    remove: (id, ifMatch, holder) => this.admin.deleteDestination(id, ifMatch, holder),
  };

  constructor(
    private readonly admin: WorkspaceAdmin,
    private readonly views: ConsoleViews,
    private readonly tester: DestinationTester,
    sessions: ConsoleSessions,
  ) {
    super();
    this.pages = new PageResponder(sessions, views);
  }

  @Get()
  list(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.pages.show(request, reply, (canWrite) => {
      const setups = this.admin.listDestinations();
      const summaries = this.views.destinations();
      const listed = new Set(summaries.map((d) => d.id));
      const unlisted = setups.map((v) => String(v.resource.id)).filter((id) => !listed.has(id));
      return destinationsPage(
        [...summaries, ...unlisted.map((id) => this.views.destination(id))],
        setups,
        canWrite,
        this.views.sources(),
      );
    });
  }

  @Get('new')
  newForm(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.pages.forAdmin(request, reply, async (holder) =>
      this.formPage({ create: true }, emptyDestinationForm(), holder, undefined),
    );
  }

  @Post()
  create(@Body() body: RawInput, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.pages.forAdmin(request, reply, async (holder) => {
      const form = readDestinationForm(body, this.sourceIds(holder));
      const mode: FormMode = { create: true };
      const { body: destination, problems } = destinationBody(form);
      if (problems.length > 0) return this.refusedForm(mode, form, holder, undefined, invalid(problems));
      try {
        const created = await this.admin.createDestination(destination, holder);
        return { redirect: pathOf(String(created.resource.id)) };
      } catch (error) {
        return this.refusedForm(mode, form, holder, undefined, error);
      }
    });
  }

  @Get(':id')
  show(
    @Param('id') id: string,
    @Query() query: RawInput,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    return this.pages.show(request, reply, (canWrite) => {
      const setup = this.setupOf(id);
      if (!setup && !this.views.isKnownDestination(id))
        throw new HttpException(`no destination ${id} in the workspace or the attempts held`, 404);
      const shown = {
        outcome: text(query, 'outcome'),
        status: text(query, 'status'),
        from: text(query, 'from'),
        to: text(query, 'to'),
      };
      return destinationPage(
        this.views.destination(id),
        this.views.attempts(id, attemptFilter(query), limit(query, ATTEMPTS_SHOWN)),
        shown,
        this.views.sources(),
        setup && destinationSetup(setup, canWrite),
      );
    });
  }

  @Get(':id/edit')
  editForm(@Param('id') id: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.pages.forAdmin(request, reply, async (holder) => {
      const current = this.admin.getDestination(id);
      return this.formPage(
        { create: false, id },
        destinationFormOf(current.resource, current.revision),
        holder,
        storedSecretMask(current),
      );
    });
  }

  /**
   * Replaces the fields the form holds, at the revision the form was opened on. Fields the form
   * does not show (signature scheme, previous secret, filters) keep their stored values.
   */
  @Post(':id/edit')
  edit(
    @Param('id') id: string,
    @Body() body: RawInput,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    return this.pages.forAdmin(request, reply, async (holder) => {
      const stored = this.admin.getDestination(id);
      const mask = storedSecretMask(stored);
      const form = { ...readDestinationForm(body, this.sourceIds(holder)), id };
      const mode: FormMode = { create: false, id };
      const { body: destination, problems } = destinationBody({ ...form, id: '' }, mask);
      if (problems.length > 0) return this.refusedForm(mode, form, holder, mask, invalid(problems));
      try {
        const replacement = withFieldsTheFormDoesNotShow(destination, stored.resource);
        await this.admin.changeDestination(id, replacement, ifMatchOf(body), false, holder);
        return { redirect: pathOf(id) };
      } catch (error) {
        return this.refusedForm(mode, form, holder, mask, error);
      }
    });
  }

  /** Sends a sample call to the destination and shows what each URL answered. */
  @Post(':id/test')
  test(@Param('id') id: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.pages.forAdmin(request, reply, async () => {
      this.admin.getDestination(id);
      const report = await this.tester.test(id);
      return { status: 200, page: testResultsPage(id, report, this.views.sources()) };
    });
  }

  private setupOf(id: string): ResourceView | undefined {
    try {
      return this.admin.getDestination(id);
    } catch (error) {
      if (error instanceof HttpException && error.getStatus() === 404) return undefined;
      throw error;
    }
  }

  /** The sources a destination can be connected to: the check boxes the form offers. */
  private sourceIds(holder: TokenHolder): string[] {
    return this.admin.listSources(holder).map((v) => String(v.resource.id));
  }

  private formPage(
    mode: FormMode,
    form: DestinationForm,
    holder: TokenHolder,
    mask: string | undefined,
    refused?: { message: string; problems: string[] },
    status = 200,
  ): PageAnswer {
    const choices = this.admin.listSources(holder).map((v) => ({
      id: String(v.resource.id),
      name: String(v.resource.name),
    }));
    return {
      status,
      page: destinationFormPage(
        mode,
        form,
        { choices, storedSecretMask: mask, refused },
        this.views.sources(),
      ),
    };
  }

  /** A refusal the form can show (400, 409, 412, 503) as the form again, with the values posted; anything else as an error page. */
  private refusedForm(
    mode: FormMode,
    form: DestinationForm,
    holder: TokenHolder,
    mask: string | undefined,
    error: unknown,
  ): PageAnswer {
    if (!(error instanceof HttpException) || !FORM_REFUSALS.has(error.getStatus())) throw error;
    const refused = { message: messageOf(error), problems: problemsOf(error) };
    return this.formPage(mode, form, holder, mask, refused, error.getStatus());
  }
}

const pathOf = (id: string) => `/destinations/${encodeURIComponent(id)}`;

/** The stored shared secret as the API masks it, if one is stored. */
function storedSecretMask(view: ResourceView): string | undefined {
  const settings = view.resource.settings as { sharedSecret?: unknown } | undefined;
  return typeof settings?.sharedSecret === 'string' ? settings.sharedSecret : undefined;
}

type Plain = Record<string, unknown>;

/** The form's destination, plus the stored fields the form has no control for (their masks keep their secrets). */
function withFieldsTheFormDoesNotShow(fromForm: Plain, stored: Plain): Plain {
  const { name: _name, settings: storedSettings, ...storedTop } = stored;
  const { sharedSecret: _secret, webhooks: _webhooks, ...otherSettings } = (storedSettings ?? {}) as Plain;
  return { ...storedTop, ...fromForm, settings: { ...otherSettings, ...(fromForm.settings as Plain) } };
}
