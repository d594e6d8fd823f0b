-- The event types an endpoint wants, as a JSON array of names; NULL sends every type.
ALTER TABLE webhook_endpoints ADD COLUMN /*[postgres] IF NOT EXISTS*/ enabled_events text;
