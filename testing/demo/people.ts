/**
 * The demo's fictional people (studio:demo and the studio's tests): an editor, two principals on the
 * roster (approvals/roster.json), one whose roster entry has ended, a compliance officer, and one in
 * none of the studio's groups.
 * Passwords are made anew at each start and printed by `npm run studio:demo`.
 */
export interface DemoPerson {
  email: string;
  name: string;
  groups: string[];
}

export const DEMO_PEOPLE: readonly DemoPerson[] = [
  { email: "erin.editor@example.com", name: "Erin Editor", groups: ["studio-editors"] },
  { email: "pat.example@example.com", name: "Pat Example", groups: ["studio-principals"] },
  { email: "sam.principal@example.com", name: "Sam Principal", groups: ["studio-principals"] },
  { email: "lee.former@example.com", name: "Lee Former", groups: ["studio-principals"] },
  { email: "casey.compliance@example.com", name: "Casey Compliance", groups: ["studio-compliance"] },
  { email: "olive.outsider@example.com", name: "Olive Outsider", groups: [] },
];
