CREATE TABLE "send_rate" (
	"sender_key" varchar(32) PRIMARY KEY NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"sent" integer NOT NULL
);
