// Initiate the replica set rs0 once, then wait until it has a primary (the app and the
// worker start only after this script exits; see compose.yaml).
try {
  rs.status();
  print("replica set rs0 already initiated");
} catch (error) {
  rs.initiate({
    _id: "rs0",
    members: [
      { _id: 0, host: "mongo-1:27017" },
      { _id: 1, host: "mongo-2:27017" },
      { _id: 2, host: "mongo-3:27017" },
    ],
  });
}
for (let waited = 0; waited < 120; waited++) {
  if (rs.status().members.some((member) => member.stateStr === "PRIMARY")) {
    print("replica set rs0 has a primary");
    quit(0);
  }
  sleep(1000);
}
print("replica set rs0 elected no primary in 120 s");
quit(1);
