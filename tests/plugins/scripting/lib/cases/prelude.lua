-- Helpers for the recorded cases: loaded before each case both by the tests (lua_harness.cc) and,
-- prepended to the script, by record.sh against redis-server. Each case is one expression whose
-- value OUT turns into a line of printable ASCII.
-- H: bytes to hex; X: hex (spaces ignored) to bytes; V/D: values to text, tables with sorted
-- keys; P: pcall as text, "ERR:<message>" without the "user_script:N:" position.
local function H(s) return (string.gsub(s, ".", function(c) return string.format("%02x", string.byte(c)) end)) end
local function X(h) return (string.gsub(string.gsub(h, " ", ""), "%x%x", function(b) return string.char(tonumber(b, 16)) end)) end
local V
V = function(v) local t = type(v)
 if t == "number" then return string.format("%.17g", v)
 elseif t == "string" then return string.format("%q", v)
 elseif t == "table" then local ks = {} for k in pairs(v) do ks[#ks+1] = k end
   table.sort(ks, function(a, b) return V(a) < V(b) end)
   local out = {} for _, k in ipairs(ks) do out[#out+1] = V(k) .. "=" .. V(v[k]) end
   return "{" .. table.concat(out, ",") .. "}"
 elseif t == "boolean" or t == "nil" then return tostring(v) else return t end end
local function D(...) local n = select("#", ...) local out = {} for i = 1, n do out[i] = V((select(i, ...))) end return table.concat(out, " ") end
local function P(f, ...) local r = {pcall(f, ...)} if r[1] then return D(unpack(r, 2, table.maxn(r))) else return "ERR:" .. string.gsub(tostring(r[2]), "^user_script:%d+: ", "") end end
local function R(s) return P(function() return cmsgpack.unpack(s) end) end
local function OUT(v) return (string.gsub(tostring(v), "[%z\1-\31\127-\255]", function(c) return string.format("\\%d", string.byte(c)) end)) end
