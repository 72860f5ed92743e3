-- Write one game's read models and its checkpoint together (one slot).
-- KEYS: 1 checkpoint, 2..1+V view keys, then feed keys
-- ARGV: 1 version, 2 V, 3..2+V view documents, then triples (feed key index, version, entry)
-- A version at or below the checkpoint was projected before: nothing is written twice.
local version = tonumber(ARGV[1])
local checkpoint = tonumber(redis.call("GET", KEYS[1]) or "0")
if checkpoint >= version then
  return 0
end
local views = tonumber(ARGV[2])
for i = 1, views do
  redis.call("SET", KEYS[1 + i], ARGV[2 + i])
end
local i = 3 + views
while i <= #ARGV do
  local v = tonumber(ARGV[i + 1])
  if v > checkpoint then
    redis.call("XADD", KEYS[tonumber(ARGV[i])], "0-" .. v, "e", ARGV[i + 2])
  end
  i = i + 3
end
redis.call("SET", KEYS[1], version)
return 1
