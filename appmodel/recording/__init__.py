"""A recording's rules rows: the one writer (:mod:`.rows`), the payload's shape (:mod:`.payload`), and the
one reader that turns a recording into typed records (:mod:`.reader`), used by replay, debrief and the class view."""
