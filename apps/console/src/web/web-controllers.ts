import { AuditPageController } from './audit-page.controller';
import { ConsolePagesController } from './console-pages.controller';
import { DestinationPagesController } from './destination-pages.controller';
import { SourcePagesController } from './source-pages.controller';

/**
 * Every controller of the console's web pages, for the module to list. The setup pages need
 * WorkspaceAdmin, AuditTrail and a DestinationTester among the module's providers.
 */
export const WEB_PAGE_CONTROLLERS = [
  ConsolePagesController,
  SourcePagesController,
  DestinationPagesController,
  AuditPageController,
];
