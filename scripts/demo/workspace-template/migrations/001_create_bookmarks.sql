-- up
CREATE TABLE bookmarks (
  id         uuid PRIMARY KEY,
  url        text NOT NULL,
  title      text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- down
DROP TABLE bookmarks;
