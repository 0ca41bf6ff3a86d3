import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Body, Controller, Get, HttpException, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ConsoleSessions } from '../auth/console-sessions';
import { ConsoleViews } from '../console-views';
import { DeliveryReplay } from '../replay/delivery-replay';
import { limit, messageQuery, RawInput, replayFilter, text } from '../api/query-params';
import { SafeHtml } from './html';
import { PageResponder, redirect, send } from './page-replies';
import {
  debuggerPage,
  debuggerRows,
  deadLettersPage,
  LIVE_DEBUGGER_SCRIPT_PATH,
  loginPage,
  messagesPage,
} from './pages';
import { COPY_BUTTONS_SCRIPT_PATH } from './source-pages';

/** Calls the live debugger shows. */
const DEBUGGER_CALLS = 100;

/** Read once: files beside this one in the source tree and in the build (`npm run build` copies assets/). */
const asset = (name: string) => readFileSync(join(__dirname, 'assets', name));
const LIVE_DEBUGGER_SCRIPT = asset('live-debugger.js');
const COPY_BUTTONS_SCRIPT = asset('copy-buttons.js');

/**
 * The console's web pages, rendered on the server from the same views as the API. A page asked
 * for without a session goes to the login form; bad input shows as an error page with the
 * reason, in the status the API would answer.
 */
@Controller()
export class ConsolePagesController {
  private readonly pages: PageResponder;

  constructor(
    private readonly views: ConsoleViews,
    private readonly sessions: ConsoleSessions,
    private readonly replays: DeliveryReplay,
  ) {
    this.pages = new PageResponder(sessions, views);
  }

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

  @Get('messages')
  messages(@Query() query: RawInput, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.page(request, reply, () => {
      const q = messageQuery(query);
      return messagesPage(q, this.views.messages(q), this.views.sources());
    });
  }

  @Get('dead-letters')
  deadLetters(@Query() query: RawInput, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.pages.show(request, reply, (canWrite) => {
      const replayed = text(query, 'replayed');
      const notice =
        replayed === undefined
          ? undefined
          : `${Number(replayed) || 0} dead letter(s) replayed into delivery.`;
      return deadLettersPage(
        this.views.deadLetters(text(query, 'destinationId'), limit(query, 200)),
        this.views.sources(),
        canWrite,
        notice,
      );
    });
  }

  /** A replay button (admins only): replays, then shows the message's timeline, where the new attempt appears (or, when nothing matched, says so). */
  @Post('dead-letters/replay')
  replay(@Body() body: RawInput, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    return this.pages.forAdmin(request, reply, async () => {
      const filter = replayFilter(body);
      const result = await this.replays.replay(filter);
      const oneMessage = filter.messageId !== undefined && result.replayed > 0;
      return {
        redirect: oneMessage
          ? `/messages?messageId=${encodeURIComponent(filter.messageId ?? '')}`
          : `/dead-letters?replayed=${result.replayed}`,
      };
    });
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
    return sendScript(reply, LIVE_DEBUGGER_SCRIPT);
  }

  @Get(COPY_BUTTONS_SCRIPT_PATH.slice(1))
  copyButtonsScript(@Res() reply: FastifyReply) {
    return sendScript(reply, COPY_BUTTONS_SCRIPT);
  }

  private knownSource(id: string) {
    const source = this.views.sources().find((s) => s.id === id);
    if (!source) throw new HttpException(`no source ${id} in the workspace`, 404);
    return source;
  }

  private page(request: FastifyRequest, reply: FastifyReply, render: () => SafeHtml) {
    return this.pages.show(request, reply, render);
  }
}

function sendScript(reply: FastifyReply, script: Buffer) {
  return reply
    .status(200)
    .headers({
      'content-type': 'text/javascript; charset=utf-8',
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-cache',
    })
    .send(script);
}
