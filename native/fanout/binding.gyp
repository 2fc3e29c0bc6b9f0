{
  "targets": [
    {
      "target_name": "fanout",
      "sources": ["fanout.c"],
      "cflags": ["-O2", "-Wall", "-Wextra"],
      "libraries": ["-lpthread"]
    }
  ]
}
