-- Model versions no label and no kept job points to any more are swept; the labels that name a
-- version are found by index.
CREATE INDEX IF NOT EXISTS labels_model_version ON labels (model_version) WHERE model_version IS NOT NULL;
