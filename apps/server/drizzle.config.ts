import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // Every file of the folder: a new domain's tables need no edit of a shared file.
  schema: './src/db/schema/*.ts',
  out: './src/db/migrations',
});
