import { Body, Get, HttpException, Param, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TokenHolder } from '@switchyard/service';
import type { RawInput } from '../api/query-params';
import { ConsoleSessions } from '../auth/console-sessions';
import { ConsoleViews } from '../console-views';
import { SafeHtml } from './html';
import { confirmDeletePage, errorPage } from './pages';

/** Scripts and requests only from the console itself; inline styles only; forms post to the console; never framed. */
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/** A page to answer, with its status. */
export interface PageAnswer {
  status: number;
  page: SafeHtml;
}

/** What a form's post answers: a page, or where to go next (303, so a reload does not post again). */
export type FormAnswer = PageAnswer | { redirect: string };

export function send(reply: FastifyReply, status: number, page: SafeHtml) {
  return reply.status(status).headers(PAGE_HEADERS).send(page.markup);
}

export function redirect(reply: FastifyReply, location: string) {
  return reply.status(303).header('location', location).header('cache-control', 'no-store').send();
}

/** What a page says when its form was opened on a revision that has changed since. */
export const STALE_FORM =
  'It was changed since you opened this page (by someone else, or in another tab): reload the page to see the change, then make yours again.';

/** The If-Match of a form that carries the revision it was opened on. */
export function ifMatchOf(body: RawInput): string | undefined {
  const revision = body?.revision;
  return typeof revision === 'string' && revision !== '' ? `"${revision}"` : undefined;
}

/** The message of an HttpException's answer, in a page's words: the API's `{message}` or a plain string. */
export function messageOf(error: HttpException): string {
  if (error.getStatus() === 412) return STALE_FORM;
  const response = error.getResponse();
  return typeof response === 'string'
    ? response
    : String((response as { message?: unknown }).message ?? error.message);
}

/** The problems a 400 of the management API lists, each naming its field. */
export function problemsOf(error: HttpException): string[] {
  const response = error.getResponse();
  const problems = typeof response === 'object' ? (response as { problems?: unknown }).problems : undefined;
  return Array.isArray(problems) ? problems.map(String) : [];
}

/**
 * How every page answers: without a session, the login form; an expected refusal (HttpException)
 * as an error page in the status the API would answer; anything else goes to the exception filter
 * (500 with an error id). Changes need an admin: a viewer gets a 403 page.
 */
export class PageResponder {
  constructor(
    private readonly sessions: ConsoleSessions,
    private readonly views: ConsoleViews,
  ) {}

  holderOf(request: FastifyRequest): TokenHolder | undefined {
    return this.sessions.holderOfSession(request.headers.cookie);
  }

  /** A page anyone logged in may see; `canWrite` says whether to offer the admin's forms. */
  async show(
    request: FastifyRequest,
    reply: FastifyReply,
    render: (canWrite: boolean, holder: TokenHolder) => SafeHtml | Promise<SafeHtml>,
  ) {
    const holder = this.holderOf(request);
    if (!holder) return redirect(reply, '/login');
    try {
      return send(reply, 200, await render(holder.role === 'admin', holder));
    } catch (error) {
      return this.failed(reply, error);
    }
  }

  /**
   * The page that asks to confirm a deletion, at the revision it shows (the delete is refused
   * when the resource changed since), saying what deleting it does.
   */
  confirmDeletion(
    request: FastifyRequest,
    reply: FastifyReply,
    resource: { kind: 'source' | 'destination'; id: string; revisionFor: (holder: TokenHolder) => number },
    consequence: string,
  ) {
    return this.forAdmin(request, reply, async (holder) => ({
      status: 200,
      page: confirmDeletePage(
        { kind: resource.kind, id: resource.id, revision: resource.revisionFor(holder) },
        consequence,
        this.views.sources(),
      ),
    }));
  }

  /** A change posted by a form, or the form itself: admins only. */
  async forAdmin(
    request: FastifyRequest,
    reply: FastifyReply,
    act: (holder: TokenHolder) => Promise<FormAnswer>,
  ) {
    const holder = this.holderOf(request);
    if (!holder) return redirect(reply, '/login');
    if (holder.role !== 'admin')
      return send(
        reply,
        403,
        errorPage(403, `"${holder.name}" is a viewer: it may look, not change`, this.views.sources()),
      );
    try {
      const answer = await act(holder);
      return 'redirect' in answer
        ? redirect(reply, answer.redirect)
        : send(reply, answer.status, answer.page);
    } catch (error) {
      return this.failed(reply, error);
    }
  }

  failed(reply: FastifyReply, error: unknown) {
    if (!(error instanceof HttpException)) throw error;
    const status = error.getStatus();
    return send(reply, status, errorPage(status, messageOf(error), this.views.sources()));
  }
}

/** What deleting one kind of resource from its pages takes. */
export interface PageDeletion {
  kind: 'source' | 'destination';
  /** Where the browser goes once the resource is deleted: its list. */
  listPath: string;
  /** What deleting one does, said on the page that asks to confirm it. */
  consequence: string;
  revisionOf(id: string, holder: TokenHolder): number;
  remove(id: string, ifMatch: string | undefined, holder: TokenHolder): Promise<unknown>;
}

/**
 * The delete routes a resource's pages share, for its controller to extend: `GET :id/delete` asks
 * to confirm at the revision it shows, and `POST :id/delete` deletes at that revision (refused
 * when the resource changed since) and goes back to the list. Admins only.
 */
export abstract class DeletionPages {
  protected abstract readonly pages: PageResponder;
  protected abstract readonly deletion: PageDeletion;

  @Get(':id/delete')
  confirmDelete(@Param('id') id: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const { kind, consequence } = this.deletion;
    return this.pages.confirmDeletion(
      request,
      reply,
      { kind, id, revisionFor: (holder) => this.deletion.revisionOf(id, holder) },
      consequence,
    );
  }

  @Post(':id/delete')
  delete(
    @Param('id') id: string,
    @Body() body: RawInput,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    return this.pages.forAdmin(request, reply, async (holder) => {
      await this.deletion.remove(id, ifMatchOf(body), holder);
      return { redirect: this.deletion.listPath };
    });
  }
}
