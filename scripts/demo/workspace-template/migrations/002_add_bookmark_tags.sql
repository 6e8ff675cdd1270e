-- up
CREATE TABLE bookmark_tags (
  bookmark_id uuid NOT NULL REFERENCES bookmarks (id) ON DELETE CASCADE,
  tag         text NOT NULL,
  PRIMARY KEY (bookmark_id, tag)
);
CREATE INDEX bookmark_tags_tag_idx ON bookmark_tags (tag);

-- down
DROP TABLE bookmark_tags;
