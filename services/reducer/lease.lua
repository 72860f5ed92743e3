-- A partition's lease (shared/messaging/leases.py): taken, renewed or given up, atomically.
-- KEYS: 1 the lease (string "<node>:<token>", with a TTL), 2 the fencing token (hash: token, node)
-- ARGV: 1 "take" | "renew" | "give", 2 node, 3 TTL (ms), 4 the token held (renew, give)
-- take: {1, token, the node that took the lease before} if taken (it was free, or held
--   under this node's name by an earlier process of it), else {0, "0", its holder}.
-- renew, give: {1, token, ""} if the lease is still this holder's, else {0, "0", its holder or ""}.
local mode, node = ARGV[1], ARGV[2]
local held = redis.call("GET", KEYS[1])
if mode == "take" then
  if held and string.match(held, "^(.*):%d+$") ~= node then
    return {0, "0", held}
  end
  local now = redis.call("TIME")
  local now_ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
  local last = redis.call("HMGET", KEYS[2], "token", "node")
  -- Above every token handed out before, and never below the clock: a store
  -- that came back without its last writes (a failover) cannot hand out again
  -- a token an old holder still has.
  local token = string.format("%.0f", math.max(tonumber(last[1] or "0") + 1, now_ms))
  redis.call("HSET", KEYS[2], "token", token, "node", node)
  redis.call("SET", KEYS[1], node .. ":" .. token, "PX", ARGV[3])
  return {1, token, last[2] or ""}
end
if held ~= node .. ":" .. ARGV[4] then
  return {0, "0", held or ""}
end
if mode == "renew" then
  redis.call("PEXPIRE", KEYS[1], ARGV[3])
else
  redis.call("DEL", KEYS[1])
end
return {1, ARGV[4], ""}
