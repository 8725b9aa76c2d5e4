/** The part of decap-server the studio uses: its git middleware, mounted on an express app (decap/child.ts). */
declare module "decap-server/dist/middlewares.js" {
  import type { Express } from "express";
  const middlewares: {
    registerLocalGit(app: Express, options?: { logLevel?: string }): Promise<void>;
  };
  export default middlewares;
}
