/** The profile editor's page for the push settings, listed beside the services. */
export const PUSH_PAGE = 'push';

/** Its title in the list of services and in the page's title. */
export const PUSH_PAGE_TITLE = 'Push settings';
