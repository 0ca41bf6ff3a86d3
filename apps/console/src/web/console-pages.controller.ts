import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Body, Controller, Get, HttpException, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ConsoleSessions } from '../auth/console-sessions';
import { ConsoleViews } from '../console-views';
import { DeliveryReplay } from '../replay/delivery-replay';
import { attemptFilter, limit, messageQuery, RawInput, replayFilter, text } from '../api/query-params';
import { SafeHtml } from './html';
import {
  debuggerPage,
  debuggerRows,
  deadLettersPage,
  destinationPage,
  destinationsPage,
  errorPage,
  LIVE_DEBUGGER_SCRIPT_PATH,
  loginPage,
  messagesPage,
} from './pages';

/** Scripts and requests only from the console itself (the live debugger's); inline styles only; forms post to the console; never framed. */
const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/** Calls the live debugger shows. */
const DEBUGGER_CALLS = 100;

/** Read once: a file beside this one in the source tree and in the build (`npm run build` copies assets/). */
const LIVE_DEBUGGER_SCRIPT = readFileSync(join(__dirname, 'assets', 'live-debugger.js'));

/**
 * The console's web pages, rendered on the server from the same views as the API. A page asked
 * for without a session goes to the login form; bad input shows as an error page with the
 * reason, in the status the API would answer.
 */
@Controller()
export class ConsolePagesController {
  constructor(
    private readonly views: ConsoleViews,
    private readonly sessions: ConsoleSessions,
    private readonly replays: DeliveryReplay,
  ) {}

  @Get()
  home(@Res() reply: FastifyReply) {
    return redirect(reply, '/destinations');
  }

  @Get('login')
  login(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    if (this.sessions.isValid(request.headers.cookie)) return redirect(reply, '/destinations');
    return send(reply, 200, loginPage());
  }

  /** The token is posted once, as a form field; the browser keeps only the session cookie. */
  @Post('login')
  logIn(@Body() body: RawInput, @Res() reply: FastifyReply) {
    const token = typeof body?.token === 'string' ? body.token : '';
    const holder = this.sessions.holderOf(token);
    if (!holder)
      return send(
        reply,
        401,
        loginPage('That token is not known: use ADMIN_TOKEN or a token from API_TOKENS_FILE.'),
      );
    void reply.header('set-cookie', this.sessions.issue(holder));
    return redirect(reply, '/destinations');
  }

  @Post('logout')
  logOut(@Res() reply: FastifyReply) {
    void reply.header('set-cookie', this.sessions.clear());
    return redirect(reply, '/login');
  }

  @Get('destinations')
  destinations(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.page(request, reply, () => destinationsPage(this.views.destinations(), this.views.sources()));
  }

  @Get('destinations/:id')
  destination(
    @Param('id') id: string,
    @Query() query: RawInput,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    return this.page(request, reply, () => {
      if (!this.views.isKnownDestination(id))
        throw new HttpException(`no destination ${id} in the workspace or the attempts held`, 404);
      const shown = {
        outcome: text(query, 'outcome'),
        status: text(query, 'status'),
        from: text(query, 'from'),
        to: text(query, 'to'),
      };
      return destinationPage(
        this.views.destination(id),
        this.views.attempts(id, attemptFilter(query), limit(query, 200)),
        shown,
        this.views.sources(),
      );
    });
  }

  @Get('messages')
  messages(@Query() query: RawInput, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.page(request, reply, () => {
      const q = messageQuery(query);
      return messagesPage(q, this.views.messages(q), this.views.sources());
    });
  }

  @Get('dead-letters')
  deadLetters(@Query() query: RawInput, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.page(request, reply, () => {
      const replayed = text(query, 'replayed');
      const notice =
        replayed === undefined
          ? undefined
          : `${Number(replayed) || 0} dead letter(s) replayed into delivery.`;
      return deadLettersPage(
        this.views.deadLetters(text(query, 'destinationId'), limit(query, 200)),
        this.views.sources(),
        notice,
      );
    });
  }

  /** A replay button: replays, then shows the message's timeline, where the new attempt appears (or, when nothing matched, says so). */
  @Post('dead-letters/replay')
  async replay(@Body() body: RawInput, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    if (!this.sessions.isValid(request.headers.cookie)) return redirect(reply, '/login');
    try {
      const filter = replayFilter(body);
      const result = await this.replays.replay(filter);
      const oneMessage = filter.messageId !== undefined && result.replayed > 0;
      return redirect(
        reply,
        oneMessage
          ? `/messages?messageId=${encodeURIComponent(filter.messageId ?? '')}`
          : `/dead-letters?replayed=${result.replayed}`,
      );
    } catch (error) {
      return this.failed(reply, error);
    }
  }

  @Get('sources/:id/debugger')
  debugger(@Param('id') id: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.page(request, reply, () =>
      debuggerPage(
        this.knownSource(id),
        this.views.calls(id, DEBUGGER_CALLS),
        DEBUGGER_CALLS,
        this.views.sources(),
      ),
    );
  }

  /** The live debugger's rows alone, for its script; 401 rather than the login page's redirect, which a script cannot follow into a form. */
  @Get('sources/:id/debugger/rows')
  debuggerRows(@Param('id') id: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    if (!this.sessions.isValid(request.headers.cookie))
      return reply.status(401).header('cache-control', 'no-store').send();
    // An unknown source answers the error page's 404, which the script reports.
    return this.page(request, reply, () =>
      debuggerRows(this.views.calls(this.knownSource(id).id, DEBUGGER_CALLS)),
    );
  }

  @Get(LIVE_DEBUGGER_SCRIPT_PATH.slice(1))
  liveDebuggerScript(@Res() reply: FastifyReply) {
    return reply
      .status(200)
      .headers({
        'content-type': 'text/javascript; charset=utf-8',
        'x-content-type-options': 'nosniff',
        'cache-control': 'no-cache',
      })
      .send(LIVE_DEBUGGER_SCRIPT);
  }

  private knownSource(id: string) {
    const source = this.views.sources().find((s) => s.id === id);
    if (!source) throw new HttpException(`no source ${id} in the workspace`, 404);
    return source;
  }

  private page(request: FastifyRequest, reply: FastifyReply, render: () => SafeHtml) {
    if (!this.sessions.isValid(request.headers.cookie)) return redirect(reply, '/login');
    try {
      return send(reply, 200, render());
    } catch (error) {
      return this.failed(reply, error);
    }
  }

  /** An expected refusal (HttpException) as a page; anything else goes to the exception filter (500 with an error id). */
  private failed(reply: FastifyReply, error: unknown) {
    if (!(error instanceof HttpException)) throw error;
    const response = error.getResponse();
    const message =
      typeof response === 'string'
        ? response
        : String((response as { message?: unknown }).message ?? error.message);
    return send(reply, error.getStatus(), errorPage(error.getStatus(), message, this.views.sources()));
  }
}

function send(reply: FastifyReply, status: number, page: SafeHtml) {
  return reply.status(status).headers(PAGE_HEADERS).send(page.markup);
}

function redirect(reply: FastifyReply, location: string) {
  return reply.status(303).header('location', location).header('cache-control', 'no-store').send();
}
