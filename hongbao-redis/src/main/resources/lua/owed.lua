--[[
owed.lua: what a packet's payout tasks still owe its grabbers other than one user.

KEYS[1] payout stream  hb:{sNNN}:payouts
KEYS[2] dead letters   hb:{sNNN}:payouts:dead
ARGV[1] packetId   ARGV[2] the user left out   ARGV[3] scan limit: the most entries of either
        stream to look through   ARGV[4] the packet's creation, epoch ms ('' when not known)

Reply (array): user, fen, user, fen, ...: what the packet's tasks of each other user come to,
waiting and dead-lettered (an operator may still retry those, and the escrow must still hold their
money unless the ledger paid the grab: the caller, who reads the ledger, leaves those out); {-2}
when either stream is longer than the scan limit, so the sums cannot be told. A task naming
another creation (`c`) is another packet's under a reused id and owes nothing from this escrow; a
task naming none (queued by an older version), or a claim that knows none, counts: a claim
refused, never overpaid.

Read by a claim that the ledger pays directly (the store no longer holds the packet's grabs): the
escrow's money owed to these tasks is not the claim's. As close.lua, it looks at a whole shard's
streams, which only a claim on a forgotten or closed packet does.
--]]
if redis.call('XLEN', KEYS[1]) > tonumber(ARGV[3]) or redis.call('XLEN', KEYS[2]) > tonumber(ARGV[3]) then
  return {-2}
end
local owed, users = {}, {}
for k = 1, 2 do
  for _, entry in ipairs(redis.call('XRANGE', KEYS[k], '-', '+')) do
    local fields = entry[2]
    local packet, user, fen, created
    for i = 1, #fields, 2 do
      if fields[i] == 'p' then
        packet = fields[i + 1]
      elseif fields[i] == 'u' then
        user = fields[i + 1]
      elseif fields[i] == 'a' then
        fen = fields[i + 1]
      elseif fields[i] == 'c' then
        created = fields[i + 1]
      end
    end
    local sameCreation = ARGV[4] == '' or created == nil or created == '' or created == ARGV[4]
    if packet == ARGV[1] and user ~= ARGV[2] and sameCreation then
      if owed[user] == nil then
        owed[user] = 0
        users[#users + 1] = user
      end
      owed[user] = owed[user] + tonumber(fen)
    end
  end
end
local reply = {}
for _, user in ipairs(users) do
  reply[#reply + 1] = user
  reply[#reply + 1] = owed[user]
end
return reply
