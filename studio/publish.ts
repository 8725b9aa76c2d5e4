/**
 * What the studio lets through to `main`. Publishing an entry merges its branch into `main`, and the
 * text it changes needs a registered principal's approval first (the build gate refuses unapproved
 * text). Until the studio's approvals view records that approval on the entry's branch, the studio
 * does not publish: the entry stays Ready on its branch, nothing is lost, and the message says what to do.
 */
export const PUBLISH_REFUSED =
  "Not published: the pages this entry changes need a registered principal's approval first, and the studio cannot record approvals yet. " +
  "The entry stays Ready on its branch: a developer runs npm run approve on that branch with the principal, then merges it.";

export async function publishRefusal(action: string): Promise<string | null> {
  return action === "publishUnpublishedEntry" ? PUBLISH_REFUSED : null;
}
