import { bigserial, index, integer, pgTable, timestamp, varchar } from 'drizzle-orm/pg-core';

export const storedFile = pgTable('stored_file', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  suffix: varchar('suffix', { length: 80 }).notNull().unique(),
  originalName: varchar('original_name', { length: 256 }).notNull(),
  mime: varchar('mime', { length: 128 }).notNull(),
  size: integer('size').notNull(),
  sha256: varchar('sha256', { length: 64 }).notNull(),
  companyId: integer('company_id').notNull(),
  uploadedBy: integer('uploaded_by').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
}, (t) => [
  // The upload quota counts a user's files of the last 24 hours at every upload.
  index('stored_file_uploader_idx').on(t.uploadedBy, t.createdAt),
]);
