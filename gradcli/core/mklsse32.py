"""float32 erf (and the other functions below) as PyTorch computes them on an AVX2 processor
without AVX-512 (the `avx2` kernel family of `core.cpu`, measured on AMD EPYC, Zen 3), bit for
bit.

ATen hands these functions (contiguous or not, any size: a strided input is copied to a
buffer first) to MKL's vector math library in its high-accuracy mode (`vmsErf`...). MKL does
not take an AMD processor for an Intel one, so it runs neither its AVX-512 kernels nor its AVX2
ones there but its generic SSE kernels ("EX"): calling each variant that PyTorch's library
carries on the inputs given to `torch.erf` showed that only the SSE one gives PyTorch's bits.
Their arithmetic, read from the instructions they run: four float32 lanes, no fused
multiply-adds, so every product and sum is rounded to float32 on its own, as NumPy's float32
arithmetic rounds it.

- erf: m = min(|x|, 3.9296875) is rounded to a multiple of 1/256 (k/256, through the shifter
  32768), j = that multiple (0 below 0.013671875), d = m - j. A table of 1007 pairs holds
  erf(j) (its float32 value in the low 26 bits of the first word, scaled by 2**-120, and a
  6-bit correction v in the top bits) and 64 exp(-j*j) (the second word). With g = j d,
  c = (2/sqrt(pi) - 1) - d*d (2/(3 sqrt(pi))), p = (0.752253 g - 1.128379) g + c and
  u = 64 exp(-j*j) d: erf = ((p u + lo) + u) / 64 + erf(j), lo = erf(j) v 2**-23, the sign
  of x put back. The table is the kernel's own (read from the library): no other numbers
  give its bits. Measured: bit for bit on 10**6 normal*3 inputs, 10**6 normal*0.02 ones and
  10**6 random bit patterns (all exponents, subnormals, infinities, NaNs), sizes 1 to 40,
  transposed and strided, where the float64 erf rounded once (gradcli's AVX512 model)
  differs on 1.3% of normal*3 inputs.
- atan: |x| in five intervals by its bits: below 0.375 t = |x|; else t = (|x| - c) / (1 +
  c |x|) around c = 0.5 (to 0.72), 1 (to 1.75), 2 (to 2.6875), and t = -1/|x| beyond. The
  quotient is formed in float64 from the float32 numerator and denominator and the
  processor's reciprocal estimate r (`rcpps`): e = 1 - d r, q = n ((1 + e e) (r + e r)); its
  leading 24 bits (truncated) are hi, the float32 rounding of the rest lo. Then, in float32,
  atan = ((p(hi*hi) hi + (lo + atan(c)'s low part)) + hi) + atan(c)'s high part, p a
  polynomial of degree 2 in hi**4 (in two halves), the sign put back. |x| from 2**123 and
  below 2**-125, infinities and NaN take another path, which agrees with the float64 arctan
  rounded once. The reciprocal estimate matters (where q is a float32 exactly, as for
  |x| < 0.375, it decides hi and lo): AMD's `rcpps` is not Intel's; it reads the 12 leading
  fraction bits and returns 12 fraction bits; its 4096 values were read from this CPU and are
  stored as the steps between neighbours (`rcpps_estimate`). Measured: bit for bit on 10**6
  normal*3 inputs, 10**6 uniform ones in [-8, 8] and 10**6 random bit patterns, sizes 1 to
  40, transposed and strided, where the float64 arctan rounded once (gradcli's AVX512 model)
  differs on 7.2% of normal*3 inputs.
- erfc: m = min(|x|, 10.046875) rounded to a multiple of 1/64 (through the shifter 131072),
  j that multiple, d = max(m, 2**-32) - j, g = j d. A table of 644 pairs holds 2**64
  erfc(j) (first word) and 2**64 (2/sqrt(pi)) exp(-j*j) = D (the first word's exponent plus
  26 bits of the second) with a small correction in the second word's top 6 bits. erfc =
  h - ((t D + Dl d) + (Dh d - (E - h))) with E = 2**64 erfc(j), Dh = D's 9 leading bits,
  Dl = D - Dh, h = E - Dh d and t a polynomial in g and d (`erfcf`); for x < 0, 2 minus
  that (by adding -2**65 before the scaling), then times 2**-64 (rounding to subnormals
  there). Measured: bit for bit on 10**6 normal*3 inputs, 10**6 uniform ones in [-12, 12]
  and 10**6 random bit patterns, where the float64 erfc rounded once differs on 4.2% of
  normal*3 inputs.
- tan: k = rint(|x| * float32(2/pi)) (the product rounded to float32, then to an integer
  through the shifter 1.5 * 2**23), r = |x| - k pi/2 in float64 (pi/2 in two parts),
  s = r*r, P = r - (c1 r) s and Q = (c2 s + c3) s + 1 in float64, tan = P/Q for even k and
  -Q/P for odd k, rounded once to float32, the sign of x put back. Past |x| = 10000 (and for
  infinities and NaN) MKL takes another path: there the float64 tan rounded once is used,
  which agrees with it on 99.9% of arguments. Measured: bit for bit on 10**6 normal*3
  inputs and 10**6 uniform ones in [-10**4, 10**4], where the float64 tan rounded once
  (gradcli's AVX512 model) differs on 17.6% of normal*3 inputs.
- log2 and log10: m = the fraction of x scaled into [2**-7, 2**-6) (log10: [2**-9, 2**-8)),
  n = rint(rcpps(m) c) with c = 1.4375 (log10: 0.43359375), so that m n is near c; u = (m_hi
  n - c) + m_lo n (m split at its 15 leading bits) and the table's pair for n (93 and 112
  entries: the logarithm of c/n with the exponent's bias, in two float32 parts) give
  log = ((u + T_hi + e) + a cubic in u + T_lo) summed with the rounding error of the first
  sum (log10 scales the exponent e by log10(2) in two parts). The reciprocal estimate picks n
  and so the table's entry: AMD's `rcpps` (below). Zero, negative, subnormal, infinite and
  NaN arguments take another path, which agrees with the float64 logarithm rounded once
  except for 0.6% of subnormals. Measured: bit for bit on every float32 in [1, 2), 10**6
  |normal*3| inputs and 10**6 uniform ones in [0, 4], where the float64 logarithm rounded
  once (gradcli's AVX512 model) differs on 0.07% (log2) and 0.09% (log10) of |normal*3|.
- asin and acos: z = 1/2 - |x|/2, w = min(x*x, z) and a polynomial p(w) w of degree 4 (as in
  MKL's AVX-512 kernel, `core.mkl32`); for |x| >= 1/2 the root s = sqrt(2z) is formed from
  the processor's estimate r of 1/sqrt(z) (`rsqrtps`, AMD's: `core.amd32.rsqrt_estimate`,
  cut to 11 fraction bits) as s = 2z r in two parts with the correction
  (1/4 - 3/32 e) s e, e = (2z) r r - 2; then asin = pi/2 - 2 asin(s/2) and acos = 2 asin(s/2)
  (pi minus it for x < 0) in float32 sums of high and low parts; for |x| < 1/2 asin = |x| +
  |x| p(w) w and acos = pi/2 - that (in two parts). Arguments past 1 in magnitude and NaN
  give NaN. Measured: bit for bit on 10**6 uniform inputs in [-1, 1], 10**6 near 1 and 10**6
  random bit patterns, where gradcli's AVX512 model differs on 0.14% (asin), 0.08% (acos).
"""

from __future__ import annotations

import base64
import functools
import zlib

import numpy as np

from .sleef32 import in_pieces

_F = np.float32
_U = np.uint32

# erf's table: 1007 pairs of 32-bit words (erf(k/256) packed, 64 exp(-(k/256)**2)), zlib'd
_ERF_TABLE = (
    "eNp103k8VN/7AHARkkqlUpSppCmKMtUw98699xxpLJWyL2XUxGTJYDAYMycRJSJKWnxISinRpkX7RmnfCGnVXsia"
    "bX73fv//zT/v11me5zzPOXfU1JjfZqj2/3gxJMtarQ3BbcnnsoZ9RbDtQD2u0YTg0dMDsZpPEDyzfuzcETcQDA+Z"
    "yR9djuD3yEX5Ew4i2Be7bNe0VASRwstuTjiCrpuD11l70iYmrHPCEZxPpb4SsRAsJrI0N6vR+7F93offKSHLumjx"
    "oytKqMY5kTG0Vwkz5p3TsY5QwjOzrrrL7ZVQaHTPpmaaEiaOfbJnRrsCjhhevy7llgJ+6Hof92+XAva3fN8aJ1RA"
    "u5d/wUhzBTx5o19xsjMBZrmrx/hfSYA197XU2VsSYCeuG6ixLAGOLteb1KWdAHWmT/BQVcvh+8zJ2SYpcpg2NNVn"
    "HZTDoZAZ46sG4iGn3tSYcz4ezrA1G18bEg+vn7TwS54eDzUnckr9X8TBn3LuGf/kOBj0AeOlcuJgtB0VWPc+Fo44"
    "ttRldXosnKLjoOxZHAsPbVxh/PCtDObeW+3zNEkG22d6RI6YI4OlCh8f6YMYeOm1n9bEkBg40UKk3qYTAyuTxI5a"
    "JdFwT12IhzeMhqVzw61+NUbBX3FRkTekUdC9JnbmG50o2DhBEWjznxReKd/s8mGBFI5/uWX8q5uRMKQn2dFgdSS8"
    "MyXVorQ5Ak7Gtn/JCo6AAb477j3sDIcl8Rlj/BXhsD4v87Xz8HDYc35X6cHtEqh6lnPZcbQE/v61J9I3Mwxe1cqz"
    "eKEXBkNY+4mzOzfBziUHzdRGbYJuK/5zrEoNhdvWFy75NiwUpscUeaTFh8C124uXHW4Phj37j8Zbi4Oh54lj+x0b"
    "g2D85VK/tyuC4Jqak8s6r22EfS9Pjcy22AhXva+wqDoohr4/zigjdMRwSse58RejAuHWvkqrnOYAmK92SUtTEADX"
    "alYZjzu1Ad4acTXwiv4G+GDkdcMRsSIYrnszpbdhPTw78rZLFr4eZo64a/zy4Dqoplmdfa/fH2qq3Q8L8faH+/89"
    "WH/vvBBeaX+ofDNWCIO+PeaVBvvB/LdPHbHba6HHs+dWmYZr4a7bLyedCF8Dnc69Ns6+6wsTD9fH2E/xhVa7Goyf"
    "hPhAb0WTcv5Vb9gtbh65YbQ3HL76vUXsGi+4xfqjelipJww1/uwn6PGAN9W/ROrYekBly9ctFzPc4aF73/3c69wg"
    "++hPj68sNzgm+TchEbtCV//WyI4yF9jFa4fRHathu37H+H7uarj0Z+fKFPkq+PtGt8/Ua87wx+5e4xuqldBa3Dcm"
    "hloJX3EHZoPNK+B1rSEP9vXlsOuFaubcQSd4+Yma3gqeE8w/N8woN8YRFuWp1+mccYAP5Bqux37Zw/F+wwtiZ9vD"
    "eFKzTiEUQPXpWiaX9y6DJSqtHYue2MHgZm2nVk076HBlBPqDLYVL9+kIF0fYQp/okUY1RyDcvkr3xYk3AD43G/Xz"
    "4ygAFw0fvTeCpOCpptFGvhEkJM6NKThaRMCWNL29ri/4sMh/rGuQBh9GLR7H+m6FQx+d8YI36zDo1jSexLN4cN0p"
    "fd9J12xgIppgFPzTGp5xnlhFTLaGXcaTGncv5ULH35N0I8KXwFOXDUT1BxbDmamTCx7dWwSPukxxdmvnQOtphlUR"
    "Rhz45othOdvOCm4rNzqcELYQ2smmciP2LoBjiGnXR92whC0axqTzNwtYU2OsT421gJXprKr33PnwtPN058XCefDC"
    "uBkcmGIOa57PMBpZZgY/Zc8syH4xF+q4mFxo/jcH8sbO4rSx5sCoR7MkD+3Y8OJ2U7ksZDbUsptt3pFlCteqZhvZ"
    "Vc6CVy+yLcMbTeDsiDlkrJoJzJszl+NvOhOOfze3fJ7jDJi724z1Pmw6nOFgXq7MYcHKAXM93YvG0KV8njStaRrs"
    "8Z/vpFKbBovHWXhuMp0KvW9aZNY5GEGDcEsOCDOEb6ct0DiVPQWeeLBAw+TCZJgYsxA71GgAhTOsyuerGcBltVZn"
    "H8yaBJdEcYRyh4nQYuoiqW3YBGh5e5Hz7Bx9aBO0WI99cTx0GrNE7vh2HBSfWSLIUh8H0925AhV7LLzcw92bt0IP"
    "/s2zLhdKx8BFNjblXvtGw8R6G93k66NgXQzP81uLLrSegHmmjtKFxRUYtp4zEhotxzlKHx2Y/wWXNSeOgOab+alJ"
    "x7Xh3cnEgchnWjC0grAt+6cJWQJSbD1TE75rIjMnOA2HZRGUr12UBtyuCTQe5avDyDwgq6geBoPNYElbuxqMrIKW"
    "mVPV4HYnW22TzCFQ3mAr+dsyAL5sXBqSxe8HFt1LBRq5/0DqFjvn1a094O/oZRylQzeQ5C0jM4s7gWqGgJ2m1gGK"
    "SgWkdG078Lay5zpXtYJZl+xDZhn+AcNJh5zuuF+g77aD+H7DD6Bl70gexr+DObWOSakFX8H6FU6CBI0v4Oxjp5zk"
    "jZ/BNOflSUcffwSFj5ejz4s/AP6KFU5L/3sHOh+scL6v3QzuCVa6xkU2gXO3V7I8mhvANcLZJNDpDWi56Gxy8lId"
    "mGu1Kmf+3Ncgo3SV9q99L4HezNXs37ovwOm81eaL0DMgHeOSdLfjCfBMchEXBz0Ga3tcnF6+fwhSgl11vbxrwfMm"
    "V6MlL+4DuNLNVbKyBtRdc8vUrr0HcizcjdQd7oKofPe9oprbQKnrYTLf4RYoj/UQbai9AUa2eOiNdL4Odq7y5Ji8"
    "vAr4VZ4mZ3yuAANTL99LHy8D451eJnjoJeDS7aVN9FwAZ9d6y28mVYKld7zJ6nHnwXAzH4n7obOga6ePb6jVGWDQ"
    "4ZOqd7cChHr4OlHe5aDzoq+5emsZqDBcY+CZchIUytdkQtYJUN24Rnj30nFgiq3V++h+DFzet9boQMdRkNqzNqkj"
    "+wjIdPPT/sUpBk8r/IQpr4vAilFC13vxh4CWWCg5Ob0QDN4QGvBq/gMLDf1FkRH54Eikv7n71IPA64F/6tea/WDF"
    "jHVObNk+kCxbpz2ZnQcGH64jq+pzweUZ60Xj0/eAK9HrxcZgNxh+f73Th55skGMk0vat2AWCNonYO4OzwLZrIoOE"
    "2ZmgbcwGsennDHDYbwNKO5wOiso2iMo27AB/+jfoZrLTQKpDgMbCX9tAWG6Ac86ZVHDkY4BvZXwKmG8RyD6wdCvQ"
    "igskl45NBla3Aw0q3m4Bp0eJue9PJoKt7mL914rN4FS+mJxxSAksWsQmJo4JQHPeRtez3XFgceRG26dHZeDahY3y"
    "BJ9oUDSwUXphnBR8pILMkx6GA2VyEOddWhiQVQclPVoeCp7qBOs5jQ8GqU7B0jWNYlCYHqw3VBIApjwKTrWKFYHu"
    "USFkr9M6sGR5iGCViRA0poUY8IbWgJaaEOx8kw/w0Ao1v3nNC1jYhkr8ij2ABIUm7chwA4ZVoUL7eBewoDtUd3fw"
    "KnB6wSb9ML+V4L/gTZJX7stB3+FNeg9WOYI7TZt0HZ3tweCEMKHb6mWgZHlY0jePpeB2UphU0x8Cl8thnOOhFHBr"
    "CxO8SCBAramEnZiFgws+EuGZEh4wzJQIA25Zg65bEnbe+yXAvltCOqovBhPnhhvFsjlgjW84OX3VQsDKCGfbJlgC"
    "v2vhrk0n5gOj1nDuj2Zz4MGK8AydaAbGOUdYCp3ngOXKCOxG+mwwoixClvloFhA0RnjWjDMBOjqRomDvGWDVkkjt"
    "iGIWMBJFOjf9nQY2ZUayjy2dCpZVReq92GcISr5Eavj8nQyyxknlNisNwHBcKg4vmwg0AqWCPr0JYGemVO919Hhw"
    "5KKUVHs3Fjh+kApinPSAUifKaFHVaAAWRmHWFqPAHq8ofWXxSBCPoljDjXVA+5Eoz+r92mCgNsrktqEW2N8eldqV"
    "Pxw8nhQt9p2lAfKwaLKtbBjoFUannuapgfakaJb1nkFqS0m0nk9VH3XyQTR542sPFfE72ijAsIt6phdjQLn+pR4t"
    "jGEvz26lAl1juJvrflH5UTHcupk/KOmeGH2HqK/Ut/Mx5OPaz9TQqxiWcO5H6nxXDLs7/R01ZqLMNq27iRq5SCac"
    "ENhAlbrIhOmNdVRruIz7y+MV9WanzNm8/jkVfFKmC4VPqUP3ZcI5vx5RiV9k7DplLaWjEespMLhPYaxYV8n5e5QB"
    "Fiu3975DFXjEYvfVb1HPI2LRr9PXqbPpsUYlgVcpUBKr3Tm9ilLcjDW6//4itbEx1pZ1tJLS6Ir1/R1+jnIeEyeY"
    "B85Qy9lxIS8mVVADZBy7ob2M8vOKE9o8P0FFhcdJvl04TpHb4jjNRSXU9YI4/fE5R6jOyrgQ5bbD1IdHcfqTkw5R"
    "yZ/jJHVbCqj3fXGe51Pzqa6x8eYluw5Qt2fH2x4t3Ec54fGo9NxeKnN1PKf00R5qZ2A8lv8zh3KQx0vlY7KpW5nx"
    "5viSLKr3cLygbv1O6veFeP2lu9Opwtp4SdyDNGrCu3jzcM3tlP3feBbLLpXia8pZiu1bqU4DuUbS8yRqk5ncYM70"
    "LdRxXM4VRW6mjq+UW3pmK6hN/nLXTvt4qjtCLk0bIaPskuQinWdSyme3XOJfFE4tOSIPUSZsohrOy1kuwmDK7p5c"
    "VOsopuJey9EbYgMl+yInQ7B1FNEtl0ooP+qpZoLo1Qpfav7EBGGGyIvymJVguTXRnXLiJLDKSlyoUTBB1vnKmTqw"
    "KgE5jFpB9folJOU7OlKzNiUImrMEFEueoD/QvJT6vi3B8usiSCXlJogysknqz+EEybsenDI/ncB6tIFH2VxLsLR7"
    "w6Wm1CaEWLsvph7VJejn1ltRrp8TxCtFC6hTbQmWq7rmU28HEkwydppTH0Yo9Dos5lKXJyjMo17PpoKmK0hV8izq"
    "j7kiaStvJuXEVXC7ulkUggoDcHkalbZCEeKVbESFeSlEZu5TKHORQnB8ngF1c5NCcHfkRGphrMI8rHU8Jd+iMNnd"
    "MJYqSFdIzB6OoQpyFU6sO6Oo+EJFSMCtkZRVqUL7170R1N2zCuGRZ1rUkqsKk8SPw6nkewrdyH/qVPkThWvQpGHU"
    "pXqFeVnkEHnog8LZ504fufGHQnJpRg+p16EgK9I6yD39Cul0VSs5oKG0/a38RdqOUgr7dL6TIROU8nmFLWT0VKUg"
    "AHwk/WcpZTt+N5MW85TczcWNZDNHSZoF1pMRmJIbavWK/AqVnvN0npPAUSlY8eMxiVYrsfOvaslDXkqhQ20NeUyo"
    "FP55cJfcHagUp728RQZuUpqrf7tOTotSOmOaV8mqeKXG1HmXSSJRKd2x5gJ5PFUpCMs9R/ZnKM1PvDlNLtqtdDKb"
    "XU6671c6P5WfJP0Klb7JDcfJVUeVJpawhDQ7qbStPFNM/j6tDFGfV0Tuv6Ak/5UVkAuuKsVbrfPJ07eU2um1+0mj"
    "GqVTT2AeGf5I6XpqZC5Z8Vxpu68yh2ysUwqKgneR7U1KdHp2Jtn5QalX/iOd/PhFaZRSmUZe+am0nZa2jUxqU3L8"
    "A1JIbpdSw9o+maz7p/TdabWFDBhS+q6YtZn8oI5MrvESSEdt5LkGiyWLdJG+g2MU+VUPydeIw8mpE5BlcHYoSU5G"
    "Tg61G8nVU5H0ybgA0nU6Il8GrCOXzkKuFtVrSdM5SFC52IfsNkckPO1BXrBEnidtXMkgDmI/fOxM6nKRqzx8Ofkf"
    "D0l2GTuQJgQy+lFvR+YBJFtbAEk1O6RfHUGS3vZIf9gqnCx2QnpfbGzIDyuRiYvlEnKsCxLNWMAhrdyRZD6+gBR4"
    "IaGb63zS2RcJpNFmpKMfsg0oYpPW65BEp2EWabgB+WJTZ5JtgYjduJFFXgpCorvXp5KyUGTeMN2QnCtB+t07DMgn"
    "EYjTrzaRDI5CJtVoPPkvBsl4I8aSyjhku3j/aLJXjoz2LtYlxUpkZNswgqzdjFwNtmmRpknIs5cYTkZvReSdoWFk"
    "VSoyurlTRXRvR8h3YT8xNx1pGLd0E6t3Iu7j43+J8CxkboX+EFuzkWx8wA8iezcyX+z7hdiTizxF6z4SWXlIP1DW"
    "TCTuRyFa+Q1E8EEkHfP8NeH0HyLtJ70gTAqR7+agJ0THIeS5pbaWqDqMnKbgNYT8CCLHV90hOCVIgNnfJD4dQ1LR"
    "p6tEeiny9Ey/TMw/iWRf4AWiugxJPmidI3zKke3k+griSwXS9aksI4LPIGf5oVLi21lk4rivhBCeR3oH8ouJJ5WI"
    "DU4dIqwv0nXU/kccvIS06zoOEL2XUUj4nH2E8xVkeWpjLlFwFQkDz+UQP64hbYnuLsLiBuL+t2knEXoTyWsbdhBH"
    "biHfhy7bifrbSBz/KoXQuovYp9YnExb3kDnZl0isqkZojDUiwmqQ+Y3MeCLlPt1vfzSx7wEi18RHECW1CDs9ahNR"
    "8RCRqtMbiXOPkPNQ0Abi7GOExIv8iVNPkGvn2DVE8VPk6qfyJHKfIT2RypVIeo70ro1dRYS8QJ7zOMsJ55dIHhpo"
    "T1i+QnJ+6VJC9zUS+w1RxKfXyDZrPZ+4UIeMdr+2IVLqkXy+zxLC5Q0STfttRRg2INGcTEuiuQGhCdQ8oqAR2Rar"
    "5hBrmhCn8JEpMfEt8n18fCZR+xbZduewCEUzkrzfMZWY9w6J3XdNIerfIYxVPInY/B6Jde7oE6YfkKy5bSxRTRtk"
    "NoYI/IhEceG6hPon5Pzm1gjiwCfE9ZqhRSz8jMzv7tAg7tD+GTaMcGtBpJP2IP9DC5JEz+jlh35B5ODqDn7nF8Td"
    "lveHH/cVCS93fucPfEVcLLCFn/ANOZ399Z7f9w2xHqQ28aO/I8yMW8//8x2xUN8L/oYfyDXm2RN+/Q8kvFJVy3f8"
    "iQTql6r5l38iva6a23z2L0Q6/LzOz/6FfMtZV/j9v5CoKeAif/1vJNpy9Ry/+jcS+sw+zTf7gzwnF5bxd9BGm5Xy"
    "f/xBvmZ3j/IFrUjyV3KYf7gV6aeYFfIHWpHT4c6DfLc2ZKL5eB+/tA3ph1bm8ofakHluWQ5/VTsSw7NZ/EPtyNmq"
    "OoPfRo/Z39P4xF9k2TJ5Gz+N1sJjK//lXxRSU7iFP60DidraED+gA7F0LsfzT9BuPBjNb+1AIYV7w/lWnQhRJ0L4"
    "UZ1I3Pw6kH++E7FGG67nd3Yiy8CotXyrLmSQ2OLFD+tCwp5QN35pF9IOGLmK/7kL6YmvOvGndiOUv1XAd+tGviXr"
    "bfk7uhGL7Ubyb3Qj1xveGL+zG8kNpFz+nB5k8KyAw/fpQey8d5b8HT2Io281j1/Vg7DfuXP4P3qQ7YvRpvzJvcgp"
    "PHcG364XeUYtMOZH9KKQnY2G/Pxe+n+z14Bf3YssH4gm8Nt6kdiFGsef8g+ZX503hg/+IY3rc3T54n9IMm7RCH4G"
    "bchKTf7Zf0g7RabOr/uHSMxPhff/Q3oN3//h0/oQ2rCrE6f6kJ6bWyu+rg+Rc61+4Fv6kMEGsxa8qA/pb8Pf4zf7"
    "EHfKxkb8fR/SLjj5Gh+k44p0nuNG/Yh9UvkI5/Yj+XLd+7hbP9IYW34Hl/QjbHvQDTyNXnfgXcGL+5GgZfpF/Fo/"
    "YnVMPYfX9SNLXYsKvJWOq3E9iWsPIHQ34xjOGkBkYWMxvoS2Gz+EL6fnQ07n4+tpC6z347H0/JLnuXjGABLUK3Lw"
    "ogGkZ4Zl4ZUDiPVKJwO/P4CkW79vx98OIP3Pb1Lw1gEkK2xIwtUHkbn452Z8wiBivzJIwE0HkfSCLAbnDiLdhq5w"
    "XECPS3aF4F70+nbHQHzjILL8zVqHxw4i7WXj1uCpg4ijZeyJ59IetnPBj9Bxu1NX4Gfpsccne/wmbYDXUvwJPU99"
    "IfGmQUQGpWP490EkCHDk4t30+ZdZHFx9CIW06VriekNII3uMOW44hOQWbDY+ewg5r3Y3wRcOIZSZx8L5Q0gvts0I"
    "F9Dj4jWTcRd6/VjTBHwNPWaFj8PF9HrRpDF4BJ3n6ZORePwQ8l12QBtPHkL6R2OH4xlDiLNLPAzPpfV+MoAVDCEj"
    "rL0bK6HPn7yoHasYQizbvT+xi0OIO9bwC3ZjCGFvqt5jNUOI3SdvxJ4MIdlz79dYHR1/1+0Z1kznXxL6EGuh4zML"
    "qrFfQ0iE/bmFdQwhp2Oe17A+Ov+yxkuYmgp5psWex7RVSOOHxWlstAoZvBs8iemrkNHnz8ewKSqkG/epGDNWoZBp"
    "/wqxWSqEuZnmY3NVSHZEvA+zVCGT3Ot7sEUqRJ6Zl43ZqJBTyqmdGKFCgqKlOzBbFeLk/knF7FVIv+dEMrZchUTe"
    "CYnYajru2LUEzJ0+f/jxGMxbheSqynD6U0f6L78GY+tViHWLF4AF0o4pF2LB9PygrQ+2iT63qdcNi1Ah196Hzlg0"
    "nefIdUcsVoXE1k/tsAR6v84QhSEVcpbZ49gWFZK+O8XFUug+ShZwsO10X5xHFlg6va81yQzLpMd2brOxbBXSO8qf"
    "ie2m8yeTxtheui53b0NsvwpZZqdNwg6qEDr3fDxWQPeFLdTDilRIu+SILlZM9x1vOQI7qkIS/PFw7Dh9f1GJw7AT"
    "KsT13jXAK6Pr+Lasm1dO9312ZhvvNL2v2eQH7yxdV47DZ955eqzKbuZdoOt3UdXzLqmQ792MF7wq+pws/mPeVRUy"
    "7xh9n3edrn/B0G3eDXpfxujrvFv0O3hil3l36PmGlPO8u3S9wa0VvGq6nzVRJ3k1dJ6RE4/xHtD1PHt6mFdLv4t+"
    "SQHvId0HZ+8B3mM6b17hXt4T+h5P3crhPaX7/jyQyXtOxx9fmc57QdcfeWEb7yVd/4UlW3mv6Pr/1ibyXtN1w98J"
    "vDo6T0poDO8NfQ8XJ4TzGuj7+/A5iNdIq98k4jXRBvxby3tL19eOefGa6e+rrsiFUYbPX8F7R39PyxsEvPd0nZzj"
    "kPeB7pe9j8/7SN+333Fr3ie67olvOIzyDLYl7zO9b9RuM14L3febabN5X+h12zszGKUHU6bxvtL9cTdM4X2j31Wy"
    "ZiKj9FDYON53FbKdt3807wf9/cQ06zAKW3havJ90/y2n1BmltdIhm1903vLKHkbkb9pu85uOe3Lth80fuu6OxM+M"
    "tvc3NTMi18R6m1Z6/4Gq54yyU0aPbNrouosKqxnFOx1u2bTTdWRPvMro+kzjos1f+p5i9M8ycstsTzGKS3OO23TQ"
    "fRSrH2EU1GcWMkpTeQdtOun4nmF5jILwlhxGCficadNF7786uIORtFm4jVE8Tpls003f86FPmxkt99+KZ3Tt+iVl"
    "lJrabbLpofsf/iCQkRMV78/outbdh1Fa5u1m00u/l3fKSkbzNQ32jILLbraMorhOPiMquWht848+36uQw2h5pNSC"
    "UXDq9VxGYa6JKaNsW9Z0mz4635mpUxlNBNUGjNwtmfqMToVReozCj9G6jNJd2do2/fT99N7XYDQSG6kxmotG/bOm"
    "xUT6fxmdUxx/MgozKj4zSuDSZkYUPbzeeoDuX9X6jNHohuZDRnbB0nuM3G0nbjDaRtpUMbp6/j7PKLS5V8EYMv32"
    "CUaZ4aej1oP0e+OmRYy6h7blMxqIR+1jNDlfvpvRvDIii5F7YHU6I5m3chuj0w9xMqPrk4ObGX2N3sQxihpORjJK"
    "4s+GMMoKfm5gRL2uftZDdN+8n56MuqYVqxn1Ew85MRpNvWbHaPJ4OMXIjo7iMVr26C5m5MIHloyY4ykzRlvdC6aM"
    "gpRP0xmd7lpNZXR9ddiA0fPxYn1G3/tfxzCKvl8cySh2O6bFGMI9r84o2X51kEsr3WjfzShL0WlllAeqvjKiPXM+"
    "cFX0PZUlNTBqr9R7yag788EjRr23Z6oZ9Xk1NxkN1HSuMBr1Syv/p0r7NCPr5+0TjCbFR48ysieWH/qfVk0HGc27"
    "5+UxWm4ozPmfSYszGTkbfqYxco1upvzPe+e3MGIjdyn+p0Z7NCP5fHvY/3znLWa0PSD0/5/J+7wZBTO0XLn/BzB3"
    "lX0="
)


@functools.cache
def _erf_table() -> tuple[np.ndarray, np.ndarray]:
    words = np.frombuffer(zlib.decompress(base64.b64decode(_ERF_TABLE)), dtype="<u4")
    pairs = words.astype(_U).reshape(1007, 2)
    return pairs[:, 0].copy(), pairs[:, 1].copy().view(_F)


@in_pieces
def erff(x: np.ndarray) -> np.ndarray:
    """MKL's SSE erf of a float32 array (see the module's docstring)."""
    x = np.asarray(x, _F)
    packed, slope = _erf_table()
    with np.errstate(all="ignore"):
        a = np.abs(x)
        nan = np.isnan(a)
        m = np.where(nan, _F(3.9296875), np.minimum(a, _F(3.9296875)))  # minps keeps the bound
        s = m + _F(32768)  # rounds m to a multiple of 1/256
        k = (s.view(_U) - _U(0x47000000)).astype(np.intp)
        j = np.where(m >= _F(0.013671875), s - _F(32768), _F(0))
        d = m - j
        dd = np.where(m > _F(3.55271368e-15), d, _F(0))
        c = _F(0.128379166) - (dd * dd) * _F(0.376126826)
        word = packed[k]
        y0 = np.minimum((word & _U(0x3FFFFFF)).view(_F), a)
        y0 = np.where(nan, a, y0) * _F(1.329228e36)  # 2**120
        lo = ((word >> _U(26)) | _U(0x3F800000)).view(_F) * y0 - y0
        g = j * d
        p = (g * _F(0.752252936) + _F(-1.12837934)) * g + c
        u = slope[k] * d
        r = ((p * u + lo) + u) * _F(0.015625) + y0
        return (r.view(_U) ^ (x.view(_U) & _U(0x80000000))).view(_F)


# AMD's rcpps on [1, 2): 4096 results (by the 12 leading fraction bits), each 2**-1 times
# (1 + f/4096) with f from 4094 down to 0; stored as the decreases of f (0 to 4), zlib'd
_RCP_STEPS = (
    "eNrNkgsOAiEMRKfF+5/ZGBblozs7aVFZAnm8KRCy7ua11fk2cSHeSb6QvDpbMj+mvhfCLvooWzJjPc/MX18R2UWv"
    "sole5bbQ+syF+Cib6KOM9bxnqj7MXrZkrzJWf4SGdF926rMZyR68fmjv1s48y1swrzakVGG6Ly7nsxn7Paa1gZ14"
    "Vm/J9RDreR7jIDI216tez7cnQbe8j5GcV/2ax9j/nBH0C6N/FT67mN+9H/LuU4eJjTC+7JFcf/wy/b+Tyvjxfrjm"
    "P26j+mg+u57xHTJDEAE="
)


@functools.cache
def _rcp_fractions() -> np.ndarray:
    steps = np.frombuffer(zlib.decompress(base64.b64decode(_RCP_STEPS)), dtype=np.uint8)
    return (4096 - np.cumsum(steps.astype(np.int64))).astype(_U)


def rcpps_estimate(x: np.ndarray) -> np.ndarray:
    """The processor's (AMD Zen 3) `rcpps` estimate of 1/x for normal float32 x whose
    reciprocal is normal: 12 fraction bits, chosen by the 12 leading fraction bits of x."""
    bits = np.asarray(x, _F).view(_U)
    exponent = ((bits >> _U(23)) & _U(0xFF)).astype(np.int64)
    fraction = _rcp_fractions()[(bits >> _U(11)) & _U(0xFFF)]
    out_exp = np.clip(126 - (exponent - 127), 1, 254).astype(_U)
    return ((bits & _U(0x80000000)) | (out_exp << _U(23)) | (fraction << _U(11))).view(_F)


def _f(bits: int) -> np.float32:
    return np.array([bits], _U).view(_F)[0]


# atan's intervals: (numerator, denominator) around c, atan(c) in two float32 parts
_ATAN_HI = (_f(0x3EED6338), _f(0x3F490FD8), _f(0x3F8DB710), _f(0x3FC90FD8))
_ATAN_LO = (_f(0x31AC3768), _f(0x34288858), _f(0xB4DA2880), _f(0x34A88858))
_ATAN_P = (_f(0xBEAAAA6C), _f(0x3E0F4E4E), _f(0x3E4CAA3B), _f(0x3DAE1329))


@in_pieces
def atanf(x: np.ndarray) -> np.ndarray:
    """MKL's SSE atan of a float32 array (see the module's docstring)."""
    x = np.asarray(x, _F)
    with np.errstate(all="ignore"):
        a = np.abs(x)
        ia = a.view(_U)
        # unsigned range tests on the bits, as the kernel makes them
        near_half = (ia - _U(0x3EC00000)) < _U(0x007851EC)  # [0.375, 0.72)
        near_one = (ia - _U(0x3F3851EC)) < _U(0x00A7AE14)  # [0.72, 1.75)
        near_two = (ia - _U(0x3FE00000)) < _U(0x004C0001)  # [1.75, 2.6875]
        beyond = ia > _U(0x402C0000)
        small = ia < _U(0x3EC00000)
        cases = [small, beyond, near_two, near_half, near_one]
        one = _F(1)
        num = np.select(cases, [a, -one, a - _F(2), a + _F(-0.5), a - one], _F(0)).astype(_F)
        den = np.select(cases, [one, a, (a + a) + one, a * _F(0.5) + one, a + one], one)
        den = den.astype(_F)
        where = [near_half, near_one, near_two, beyond]
        high = np.select(where, _ATAN_HI, _F(0)).astype(_F)
        low = np.select(where, _ATAN_LO, _F(0)).astype(_F)
        r = rcpps_estimate(den).astype(np.float64)
        e = 1.0 - den.astype(np.float64) * r
        q = ((e * e + 1.0) * (e * r + r)) * num.astype(np.float64)
        hi = (q.view(np.uint64) & np.uint64(0xFFFFFFFFE0000000)).view(np.float64)
        lo = (q - hi).astype(_F)
        hi = hi.astype(_F)
        s = hi * hi
        s2 = s * s
        p = ((s2 * _ATAN_P[3] + _ATAN_P[2]) * s + (_ATAN_P[0] - s2 * _ATAN_P[1])) * s
        y = ((p * hi + (low + lo)) + hi) + high
        y = (y.view(_U) | (x.view(_U) & _U(0x80000000))).view(_F)
        rare = (ia >= _U(0x7D000000)) | (ia < _U(0x01000000))
        if rare.any():
            y = np.where(rare, np.arctan(x.astype(np.float64)).astype(_F), y)
        return y


# erfc's table: 644 pairs of 32-bit words (2**64 erfc(k/64) and its slope, packed), zlib'd
_ERFC_TABLE = (
    "eNot0vkj0//jAHB7sWder7yWyWIYhrmHyX3f921j7FK5IlduUa7KrRRJkkJ00UFFCkmKSuWIiIqQSoXeIerz/eH7"
    "+BsefHzpvHuRwnwXUg/wmoOOSQ2tJfBqnI4FKift550gHRNQW43gnZwsNohM2cu7X1isfPBfIE9DrTh04WgAD7lT"
    "pG4iyual0YrofHW+vNaKQoMHRt68X0sFJpvDbrwoo4JQ60Qn3r6YfBsRGTueTnme+sJzS554U66HU7Ypb9/tHPWr"
    "Voa8/MajBrmwLm/w1BEpxpgWr2H/4cDsm+q8/ebZ4pmlyrxzfzNT72cq8KqvZ6hXpMjy5hnpcYfSpHhT79Ic+vPF"
    "eSGrKcpv60R5uzcSdQSeCfOGFuLSz/0V4j16FCO8agrzzPIj93HysDxP8/AAwgyGt+1jiE5P2Qa3KG7GAMn4xf30"
    "+73wvqOLXGrEOwf/y3Pcg8NjfDoL77krtBEdX/u33Pqs1wqiDwe5N/pf8N3yf85V3tovHo/v5cpb9yqXzHZyW+K6"
    "hQ3etnEXqzuUi742cyee3LO5RWri5n67I9secYm7tq1Z+M5EDVeDdl3wUlgVV97rKrtE7DR3ILYhIHT6BJd8qtZC"
    "4kURF9yvFih+k8vdNVsp0PAvm7tN9LSWhV06d86uVIHuk8htPYSHg9iRXJcOlGhVFcTdDRBShCSHe4MBiOxBOvfL"
    "NUg3tceFGyvz10Dzpw038fd/Qv0MU+72T98Nzi/pckM/z0v9eqzBzcZ+tNjyWokbaDQuuHU7mbuaMySolSvBlVp6"
    "blK9U5R7JqFXNhWP4+4U6xJ6TxbkFg61qc/sgbh2Tc1Mg2trnIV6DbLq0iJn+YEyueXkDOfFihxtoeQtZ8yRRHq9"
    "8JKz+4EYLa6il3PZS8Rw8NwDzjRA8d9WWzi08S3krpprnGsDEMWlqo7z8MkfgdzZs5xy7SXlxJQyTtfEvIAIs5iD"
    "651SYKXlcPR+jtgw5jM4U/4vLLZqJHJO89sRF3DhnJkFU3JgFI+jJqxHrHKmc/r3a8C95xw520SUKFKh5hy9bzLU"
    "T9W6nEh+Ii3JTp0z4S1CNmDIc8rebaWdfirBuXQOi5eqFuFoaf8Tpw8jnNbjy7IzQfycl6x5dejsKtuliIOdFPvC"
    "Xlb0puD0JtmH5R3JQT9fsW9nmBPHrR+ztc31KMVK99jn/aikR2XX2bUvFEgz+RfZY2ekKIcwZ9nvHojSXJZOsJ11"
    "UVTRL5/dsYElCtOy2E2UvyZ7FxLYoQvRaKdlKPuHVSBBmOfPLldlYvMMXdn3K11UGp9YsHtPWuItBHTZ6jh91G1G"
    "hR0nQKVo7pJh68XKw6mxBLakjwRZTFSI/aEBj5Uz4Wf7h8BY0PeLFV6YQewWnmXJacTBdhZvWJ18wdg3Lk9Z2Hwm"
    "2UitnRXX44ypfdnEetRgTnqoXcsap+qQm+xPswZcVQhL2GLWV4wM5WDgYVajNYHo05LEeihUgA/rDGEhvllozFtf"
    "Fs0wAeauOLCCmoIJY/+MWJVYJsXwO5WlRHNCU1rIrBYlU7yJ3Q6W75QWtb10K+uAG0WlvxzDWgyX0D2d+8N/ROMY"
    "ypSZ8m8pOgK3Tr3w7wEHMOfudviTkDDSp/Ib/gni/gTX6Fr/FHln4gHNcv8okin1S2+Bv/GaJn5aLdPf57I89l1l"
    "tP8LhXK0wY7rb8IpJIibufo/dsjCRkWY+iu0xaI6nRr+ZbK7CWR5sr/qTU/89mxRf3GOFebPK0H/dGEd6tW1P37c"
    "9osY5S9zflmeFXh19rBfQVcR0UD7kd/bv1nofnqzH3EtFj1xpc5vnr0LfkEu95MU8YDbL+T7rUIWBEfJdL+/EjTY"
    "eDnM741dDYHs7+vnEleGVXCx9dMvycMaXdXxm5M9RPbgUfwudYSRlFzE/DRnfPHGLMSvKdYOdf+2wdzCuE0gic4x"
    "z0fXw38EBpnB10/jmys7mTX/CvAlbU3MVacMVN+impnDF4Em4EuYVJIfSUv0MFP3mR2GGbCfif/Rgl0/y2aqRlzE"
    "PLjjwHyiUo41OKrHXELzsVPzFOYVcJA0eW8H03shhDD1QZCpU+2N705b9eUKdMHS+z/4RvxqwqvGPPPdRa/G/HFr"
    "9Y0XKMFKT9f7bixkYxmC5b4pkzEYVmWub80Ki8L7l+SLW+zFt6ju8s2oacFmHnb2bf9RS1ic1Pc1bi4lKSKKvriB"
    "o0TcJMHX1TGBuKazxZery4MfjS77dND6MJyn4z7N+DuEz5jHPrirdWi6602f2belxL4D1T67DxzFlAcc81l5G4ct"
    "HczwyVTiYKd5e32CL/ZidBo8ffCKzeiclYnPtuQLsO6qsk9rfAlKLxXz+fwrC7/16xaf0GsRmPLaZYb7j2Fsm/Vb"
    "BimlE4aiuxnRhGuo70IjI+f4GUJcciVjrisf3v05n/H1Twp+644URojlBzwzhMd4IdxHoCfbM1rVWwh/sNoMa84F"
    "7NJzaUZp1HHCz1MoI143k7ArYIP+DP4MDw28p+dEvcT2qDyhz/i04f+Sb9KJGReJD2Or6AYtJ2HihwL6jY5s/K7A"
    "FPqZ6a/okb1cepnVIEEx0ZY+4d4Ojxtr0p0f18NJkZL0mJBSgulzmD6/nk0wMFrxLj7zFaZ4jXq7B76GKVkd3vab"
    "bdjviZe830teRAkzpd4/Uk+gslnZ3tBMJpynGeYdrjuP9xtx8/Z4/xw+Ua7nPRx9G86VJnvvKD9PmCXivK23FeMj"
    "c9e9GqibsHTXhNeVL1PYQ+EPvVKXejAOlCtet2YbCQJlZV6pCRXofGS2Vy0zh9AwGOoVfeoHtueYi1e86hBe9+JO"
    "r3eYezDrBskruLMWrvZHvMZEjmPTG5Y8Bbn/0ISbQ57H696j7cw2z4NHegjDGjWey6euoeeHijyrUsvxggvJnkc+"
    "YCGPXH/PobUF/CjG3LNA4gX+2TtFz4nrzbBQC94zj1FFcPT964G9hoi8fP/Ow+HZEiYiscuDf/8Q4XVlg8d0fyvh"
    "8ocSD/29F+CHvYc8vGZRyKiC66Ey8ht+eMHSw9Z7FN/IUvaIa2vHJrmLeNBLagnd1L/ur6O2IQmNE+5Cn9fwExkd"
    "7mkVY6ir1EX3fbvuE3z5j7mPtNfCHqeS3c2Mt0GHNJjul36uYmqUjN0fG4/Ct5fI7nfa7mE78ULuO+cuwM7UJbd0"
    "JxQXZPXKjW9tBe1ra3absh5Ch/kr3W4O38FXnD3itl/uHCpDC3U72QQjWCUHtwH5RfRkrLpb2Jvn+KAsUTe9kRuE"
    "iKv/XKnHiWBtddw1KV8AOap63zXg+gxcXX7BtU2rB924nu+aunQJ6/w5yjU5SAT8XnB1DRDfwG9p0HIdWRpF/6WI"
    "ue6pbEMLhjCuX6OqMboxky4CkzB0PvGBi8XQV/g6VOPi79EPf4rJdxmJa8TujI90UT1HQKh9zi7pVnxgu6iGS8fT"
    "cXxDtahLhGE7mnZ10zmARIYGA0adG97AOKOUu85HOr5g6TpnnSsOPYU1Zw87/5a/SgCbe5x/b4iAt3xWziaz67Ar"
    "huJ8fcsIVs5OyNkt7TY+bfeiE/uwJOBP6HOSTRYATpNXnHaVfICFho47Za504E38Ep06bOTB0yueTlLPEVxHHc2p"
    "7+MX1DNmh5OS7xN8dtNfxyS8KphLfuPY6SIMaenfdszoXMG/5a9w5E8cwA+QMh0f9TShGh0sR6cxUbA7ydCxcu0P"
    "vDVRyrFVbRjfvMjvKGPZjO3dPelQzxQHXj73HMxu8oGc9rMO5vQxfFdHtkPy3juoNIPnEH5bAvnZY+zQFA2Brmck"
    "B9nRcZRQIOBAU29FDx6btC+bkQTHHrXZ91P5gWl9pX1YwwSmn55l33ewFWNPZNtLT0iCdV8De+VPEKjykrA37xyH"
    "v8ti7Jm8u9gnm2/s9M5KALOiZrukcgwImiiz20oZw6auH7ArHNIFNxledi6a4kAxTdPuZ9VfNJwpYuc0O4R6/F62"
    "Tf1Gg/Qs+23vVYvi9lpesrXUXIWV3xfYLkoNwK5BYbZ8XerIyJyVrS0QBuWbZFvHLT/QzuPANnqhFz+aNGXzfp8i"
    "7mdCq41tCoKbGT1tE8+Yxc+RDtnkJZoj8+HeNjdFZRCarKZNs6QAcn9T2CbHfRw7+fu7dduSLoKkPrYufL8DGRSr"
    "tZaWWEd3lx+1rtcagPU2eNYVRWqI/7yB9fk/KPKnRNxab3YB++vyHyt3fSswHD9gpZAuC+V/v2zVWSKAE3pcYMWa"
    "e4uN7gqxsqjRAQeumVmtbIiC7S+krAbqfqHq03xW30P7UMveQcusW4rQ07lrljWGMChsL7J8OfAB/40WZvniliGy"
    "KWhhmV8rjhTtIVkWvlyHdy3yWdL/ew6/kBu0cBVSAYT+qxa1jQiyn1loYRs5DUeSQyxsgowQ8Y8mFqXXxaETDhIW"
    "VHgdD77+Mbc854IcOfHcnD9ACdq4Wm/OfCOIY9zMMferm0KdH3PNt13Rg1qjdc31ZQmQYfN280HOMhrK+WGGpNoh"
    "jw50m208I0Nv5qrMxIf5ke1SGWYZrSN4vVueZilPNHBS+qpm9TtxQJuImAXYzWHz16ZMb6wbg1+5LaZDt8VxySIn"
    "TLWgVXRJI9IU6+gIzj62MB1zkIe2LUuatgQKiHTQNkwOl/mAxVf9JrTXVCBTV2vyo00IF/M928Tx0TQ6UOxj8tHQ"
    "ANEQoZrUfhdFjHO3mkzd+IGvm35vPBpkhaTItxjPfZOC1IeOGz813cT2Xw8z9jB2gVgPTYy51QrQrgdixgI1Argd"
    "48tGducYoHG02+jcTzUkXe+sEYuOAI59qtFyAhey8HQyKnimjQioyxm5XNiGbHzDGFk3zMLa4i8N26QMcaeKLxp+"
    "ShUFdRaHDVkSi5hASYbh6AszhOWtaqg2LA7E8YKG22+voANOYwZCr6whvfBrBnvPSgFznzyDiOB17EQ524C+3QGI"
    "PNc0iH8qA10WFDIQIP7DNK5P6o8edUZEYm7oL7vJ4e7JFeob8DAINzRA31DeDen21NYvpihAPdWovmsdhFN4916v"
    "b8Id0dp3U0/JngLJZhTqHfLnx8X6Buh1N3qAjQ6a3vcmCkJ7JKQXkcoPoLFJ3cAyD7DL/bruYS4FhO7L161D+JHu"
    "YLbu5gl3hCyjofvXWwHoHYR16wCE9AqO6axcdkWi9K7ojJyQQ378O6IzEssHRProOlc/OCFPqpR05uRlkaY1fp25"
    "xg2Yd3dgZ4ilPWjfU7PTUoiEU4hP37kQ/RsennbcKTRihWspkd4J+RJB7/qq9iOzGKSF26397ZopuGx0WltSmAD5"
    "mUZre6iHgV8mJtrxY/rIm/Dt2jtshRHPZ7O0Hvfd4MOJZtpwGA2E6xfSegW2AkY3m2bf5YdcTVannYtXxWk2AdoW"
    "Hhb31uy1VliFByKErdWKwMmDmL5DWl1PDiKVLHutG7/sQJ+LpFackySk8OanZpbzfkRar11TdNEECQwp0ZQ33w59"
    "rN+jyQwNgvQWtDSzq7ShxjBY8zFmKzTMHdYYtmAiZSV1GjFkZSQ1PF1Drh4CUVL2GmW/nECsg4TGnmMkXPP6IpV1"
    "JA78+HuXeq/OFFKXL6aW8m/HlQVyqAmv9iConBo1KVILAQYC1JrjgpC27jP1w17e4HLVWfXWMHnc152x6kerUhFW"
    "rrG6u4o1ciFPWP3NzR1A4NakGrEqFPyXfEWNun8nUreapcZiI8ANdla7aMUAU5JSan22CkjAj++qrcupyDXXu6ri"
    "DVbQ50OFqkKtBERWzU91XDcY2jyuqFr4SQvMBf1T2fLuKPhyq1vFsNwDMZsuVeGisohcapDKjoPxiMkpTRU+DRNk"
    "xBGomFOFQabrc+XCV2zwd7xSuVlABWo/EaUc65aBhEzqKX/ptEWw2VuVkxXEkO29Q0p6X4OBLvWCkqmXFlAiJiod"
    "OXYEElcyUdrm7Ar91d6m1HZYCul+N6aoUhwJSdTXKZq26OIOPDmguMsnDwq2NFcczvFCTHTxinmysojEngmKc3ws"
    "NKJST7m/YQAaE9Iop9IKoA5hC4q5EwPSTsJT+gfJSLf5hEJSTDwIrL+oEIsYARnRVAWjpQJwvNBMoSOeAULXtinc"
    "KiaD5bgxecOYOBCpUCtfPGSAy7uWKI9cz0ee9hjJP4C9wfnHQvJtPjIQU2pI7kNaNAB3z8n5ButCduHRcu0Pc8Da"
    "uI5cm5QbIri5RS7NVBIpCn5G3ry3F1jknSbHTmmCiaJgsoVtNnDDUsmz43ZQci+GnLCXgLMtfygrszcATL06Lovu"
    "V0Z0ovxl6Z2pYP8RedlDOaYAe3dF5hmuCNiDOzIWo3RE/VWOzFueDK4y1kXmTFEkcrVJXGY1Vhs0/pyWdoo4DO4J"
    "X5Ze2WcPimvTpP3+OwkRcabSFRFcJHlUSDroDwX61PWKVHA6EayRKkkfSg1AhF0oKScvF4S0qJPOTLkgGBYfKTxT"
    "HPK88UCqYmk34JYWSo09VgZAwUtqej4FIf9fKGqYEYiRmZOkROaBbpsrkkcPuoKPzWmSxNhyxPy1sWQtYTeIXkck"
    "LxUrQYslzyWuWCRBCb9PSdwY0Ee4xwMkNrfkgEujFIlYM0dE7c0KMeXpSSi2tpkYNMtC9uodJn4MlwOBATZE4VdR"
    "yKOrwsQTv7QAAT8sHpOVCY6+qhQX3WcBgbZg8czeQtB5UUX8v0EPkMVZEyu/cxqcpt4Ra9XajVgcPCLWxVBELIJt"
    "xS5mxwGrfmEx5Zqd4LX70A72fBboOnlmx+Y5S+A4v2eHKVKETI8q7gh29kD2qa8Q/rtYDr6fvEkIqeGBifxMQku7"
    "PM68x4zwqjYKaHptJTxz0MQZBfWLVlDSAd//+x/yKi34"
)

_ERFC_C = (
    _f(0x3D362FD7),
    _f(0x3E08A294),
    _f(0x3ECD2E81),
    _f(0x3F004465),
    _f(0xBEAAAA8B),
    _f(0xBEAAAAA7),
    _f(0x3F2AAAA8),
)


@functools.cache
def _erfc_table() -> np.ndarray:
    words = np.frombuffer(zlib.decompress(base64.b64decode(_ERFC_TABLE)), dtype="<u4")
    return words.astype(_U).reshape(644, 2)


@in_pieces
def erfcf(x: np.ndarray) -> np.ndarray:
    """MKL's SSE erfc of a float32 array (see the module's docstring)."""
    x = np.asarray(x, _F)
    table = _erfc_table()
    c = _ERFC_C
    with np.errstate(all="ignore"):
        a = np.abs(x)
        nan = np.isnan(a)
        m = np.where(nan, _F(10.046875), np.minimum(a, _F(10.046875)))
        s = m + _F(131072)  # rounds m to a multiple of 1/64
        k = (s.view(_U) - _U(0x48000000)).astype(np.intp)
        j = s - _F(131072)
        d = np.maximum(m, _F(2.32830644e-10)) - j
        g = j * d
        first, second = table[k, 0], table[k, 1]
        slope = ((first & _U(0x7F800000)) + (second & _U(0x3FFFFFF))).view(_F)
        fix = ((second >> _U(26)) | _U(0x3C800000)).view(_F) + _F(-0.015625)
        c1 = c[1] - g * c[0]
        c2 = c[3] - g * c[2]
        t = (((c2 * g + c[4]) * d) * d) * d - fix
        t = (((c1 * g + c[5]) * g + c[6]) * (g * g) - g) * d + t
        t = t * slope
        high = (slope.view(_U) & _U(0xFFFF8000)).view(_F)
        low = slope - high
        e2 = d * high
        h = first.view(_F) - e2
        err = e2 - (first.view(_F) - h)
        r = h - ((t + low * d) + err)
        sign = x.view(_U) & _U(0x80000000)
        r = r + ((sign | _U(0x5F800000)).view(_F) + _F(-1.84467441e19))  # x < 0: minus 2**65
        r = r * (sign | _U(0x1F800000)).view(_F)  # times -+2**-64
        return np.where(nan, x, r)


_TAN_LIMIT = _F(10000.0)  # past it (and for inf and NaN) MKL's float32 tan takes another path
_PIO2 = (float.fromhex("0x1.921fb54440000p+0"), float.fromhex("0x1.68c234c4c6629p-39"))
_TAN_C = (
    float.fromhex("0x1.8867706ed6612p-4"),
    float.fromhex("0x1.3e66ea6aa37f2p-7"),
    float.fromhex("-0x1.b76f5e7f08c11p-2"),
)


@in_pieces
def tanf(x: np.ndarray) -> np.ndarray:
    """MKL's SSE tan of a float32 array (see the module's docstring)."""
    x = np.asarray(x, _F)
    with np.errstate(all="ignore"):
        a = np.abs(x)
        shifted = a * _F(0.636619747) + _F(12582912)
        k = (shifted - _F(12582912)).astype(np.float64)
        r = (a.astype(np.float64) - k * _PIO2[0]) - k * _PIO2[1]
        s = r * r
        p = r - (r * _TAN_C[0]) * s
        q = (s * _TAN_C[1] + _TAN_C[2]) * s + 1.0
        odd = (shifted.view(_U) & _U(1)).astype(bool)
        y = (np.where(odd, q, p) / np.where(odd, p, q)).astype(_F).view(_U)
        y = y ^ (x.view(_U) & _U(0x80000000)) ^ (odd.astype(_U) << _U(31))
        y = y.view(_F)
        far = ~(a <= _TAN_LIMIT)
        if far.any():
            y = np.where(far, np.tan(x.astype(np.float64)).astype(_F), y)
        return y


# log2's and log10's tables: for n = 92..184 and 111..222, two float32 words each, zlib'd
_LOG2_TABLE = (
    "eNoVkv9PzHEcx2+LUaauEQnrNquOhtju87bsdG0xa7SzFEvW+TKdfqD5oRq1XUartlQqHVPLtJylddF93jep5Ymp"
    "jIq0pubybTHGUfqi10vy+Acee2wPjYag+c9iQn/wNzEaQPib5ZTOlYS4veMyM5RgeZZqCI4ghBwtUhybCPqxNqlX"
    "CL5TTdJuJFw2P1O8cYSIY13qtj2E9FLVkJlIeLd1QJSlEAb3+St1Rwhze9bJOiuhozFZlp0mTCJUZmYRFtWEqKY8"
    "wu/UYUVzgXA3OVs4iwkNbocwlxNW+d8Ro9WE2AyrsNQSsjewq6+ecK3aK7c1Erxj02pZCyGQClxDknBIa5TBHYTW"
    "MqcwPSbEtHyR1h5CyfnHIqePkJAYJm2DhNxXv1TbCKHXMCOs7wlZj9ql+TNh7UC50H8nnG0fFt5xwtMQneKcITg8"
    "bYpljpD2/K3ULmQsv+QRDj/Gkjd10qRlrEiqEl1BjID002L3asaT5STcOsbNzXGKLpyxvnfeF8nw9Pa7hqIYV//U"
    "CJ3C8FnmKy3bGVTRLu0mhs7zWnbtZEROVklvPOPwwC6X1szI2NQvdEmMlhM7VH0KI3xBt4xKY9S/dgn9ccZcRrQI"
    "Psm4NnJF0ZxiODrzDaNnGGkZTa3ubEabT0prYS4jRfU1mPMZ+z4UGbQFjOu3ggxdxYyw/R5XTinjUfqgqqtk3P+U"
    "KTvtjNjKEWmpYXT62YX3BuMc8lVbA6M4ekJoGhkX0zpUWzNDXXNYTN9jbDR2C6ubYV87LPoeMFb/rBVRDxk9gTOG"
    "wieMhsAhOdo935eXrka9YNQlepWcl4yIDrfiHmRMNK2Q028YH9/2CL2HsbS9Qh78wDgQf0DaxhhZpofS8ZXhH50g"
    "On8wjC8m5dA4o3mLR3qnGLMDt8X0LCO+JEZqNH///237B1tzu4Q="
)
_LOG10_TABLE = (
    "eNoNkn9olHUcx0PMFPKkUL+fWpxtlT/HCYHMd8lJJCucPqERTMVHIUjtx4MwCrN8MPuxGesq8gdTOStyshxnImJ5"
    "u8e79+522+323J6dW7dNHp2ETdGrMIiYXH3/+vL5wvfzeb3e38+HPysuzmVhdynW/ejBSioa5/pgphUPflFEuFdx"
    "2R8uAnnFlpY4ygXFe7NHESsqnluRhfWr4sTFDELjik3GFfi+4twLQ7BvKNZ0JBG8qXjsVgLOLcVH6nIw7ip+92oG"
    "/p+K16YVYP6tWJiVhf+P4lhoAMaUYgIpOBXF5ntEaJqwZeEQIg8KG6IuyjOFBxeVEH5Y+PRXLiJzhFWnPbiPCj9Z"
    "lUJgvnB/dQLGY0IsziDyhHDkqVE4C4RNkyX4NcIFDWlUnhEOVscRXCLc9mIC4VrhR82ab7mwu4cwn9V9xjKwVgiv"
    "nSjCWinMTfbDel5YbnNhhoVnW+MwXxAujQ7BWCNc1llE6CV9HnYQXKt5VxZRWSdc/64H/xXh4Vqd20Zhzeoc7Ne0"
    "VyQNo1H41/0sgluE897R+W3V3OxDdLtwyfUszNd1fUbn/4Zw1UwH7k5h89Vh2G8Jf589gqAlbD+g73dr/uoCrCZh"
    "h5dF4D3h5b29iO0RFqd7CH+gPRtT8PcJ681RWPuF3n8llA9oj4VJ2J8K73a5qDQLpzrTsD8X/jCRQqVVOKe+B/aX"
    "wkTGQ/lr4Wfr0jAPaZ+eBNwjwrefdBBuE47XZxA7LpyxqIhAVLglpvfjW+HRHOF+L0ztSiN0SnvtzcM+Ldxx+xL8"
    "DuHmjgJCnfo/23UuMZ3fYD/cn4RK6T7nNeebSZgXtF+8iOhFYeu/efi/6Pnz8gh2Cd9/wIPhCDeciSOSFFoP5eFQ"
    "uGkGUU7r920JBLNC97wDo0+4R3Pa/cLlazxEB4Qfn9R8BWFdwyjKnnD1c8MIXNG+23S+I8LpZ7sQLgm/qeqFOSZ8"
    "vK0E66pwd5UL2xceP9KLyHVhfyWL6A3t/XIesd+E+R3DiN3Ue7OhG86k9p4ahnNbONE4AOeOcO72PvwPJZW0Vw=="
)


@functools.cache
def _log_table(which: str) -> np.ndarray:
    text = _LOG2_TABLE if which == "log2" else _LOG10_TABLE
    words = np.frombuffer(zlib.decompress(base64.b64decode(text)), dtype="<u4")
    return words.astype(_U).reshape(-1, 2).view(_F)


def _log_reduce(x: np.ndarray, scale: int, c: np.float32, first: int):
    """u = m n - c (in two parts), the table's pair for n, and the biased exponent of x."""
    m = ((x.view(_U) & _U(0x7FFFFF)) | _U(scale)).view(_F)
    n = (rcpps_estimate(m) * c + _F(12582912)) - _F(12582912)
    m_hi = (m.view(_U) & _U(scale | 0x7FFF00)).view(_F)
    u = ((m_hi * n) + (-c)) + (m - m_hi) * n
    pair = _log_table("log2" if first == 92 else "log10")[n.astype(np.intp) - first]
    e = (x.view(_U) >> _U(23)).astype(np.int32).astype(_F)
    return u, pair[..., 0], pair[..., 1], e


def _log_other_path(x: np.ndarray, y: np.ndarray, fn) -> np.ndarray:
    other = (x.view(_U) - _U(0x00800000)) >= _U(0x7F000000)  # not a positive normal number
    if other.any():
        y = np.where(other, fn(x.astype(np.float64)).astype(_F), y)
    return y


@in_pieces
def log2f(x: np.ndarray) -> np.ndarray:
    """MKL's SSE log2 of a float32 array (see the module's docstring)."""
    x = np.asarray(x, _F)
    with np.errstate(all="ignore"):
        u, t_hi, t_lo, e = _log_reduce(x, 0x3C000000, _F(1.4375), 92)
        head = t_hi + e
        cubic = ((u * _F(0.161897331) + _F(-0.349087119)) * u + _F(0.00361394137)) * u
        s = u + head
        y = (((head - s) + u + t_lo) + cubic) + s
        return _log_other_path(x, y, np.log2)


@in_pieces
def log10f(x: np.ndarray) -> np.ndarray:
    """MKL's SSE log10 of a float32 array (see the module's docstring)."""
    x = np.asarray(x, _F)
    with np.errstate(all="ignore"):
        u, t_hi, t_lo, e = _log_reduce(x, 0x3B000000, _F(0.43359375), 111)
        head = e * _F(0.30103302) + t_hi
        tail = t_lo - e * _F(3.02435365e-06)
        cubic = ((u * _F(1.77590978) + _F(-1.15502596)) * u + _F(0.00161610241)) * u + tail
        s = u + head
        y = (cubic + ((head - s) + u)) + s
        return _log_other_path(x, y, np.log10)


def _cut(v: np.ndarray, mask: int) -> np.ndarray:
    return (v.view(_U) & _U(mask)).view(_F)


_ASIN_P = (_f(0x3D2EDC07), _f(0x3CC32A6B), _f(0x3D3A9AB4), _f(0x3D997C12), _f(0x3E2AAAFF))
_HALF_PI = (_f(0x3FC90FDB), _f(0xB33BBD2E))  # pi/2 in two parts
_PI = (_f(0x40490FDB), _f(0xB3BBBD2E))


def _asin_parts(x: np.ndarray):
    """|x|, the root s = sqrt(1 - |x|) in a high part and a correction, and p(w) w."""
    from .amd32 import rsqrt_estimate

    a = np.abs(x)
    z = _F(0.5) - a * _F(0.5)
    w = np.minimum(x * x, z)
    usable = z >= _F(2.32830644e-10)
    r = np.where(usable, _cut(rsqrt_estimate(np.where(usable, z, _F(1))), 0xFFFFF000), _F(0))
    z2 = z + z
    z2_hi = _cut(z2, 0xFFFFE000)
    s_hi = z2_hi * r
    s_lo = (z2 - z2_hi) * r
    s_hi_hi = _cut(s_hi, 0xFFFFE000)
    e = ((s_hi_hi * r + _F(-2)) + r * s_lo) + (s_hi - s_hi_hi) * r
    corr = (_F(0.25000003) - e * _F(0.0937500298)) * ((s_hi + s_lo) * e) - s_lo
    c = _ASIN_P
    pw = ((((w * w) * (w * c[0] + c[1])) + (w * c[2] + c[3])) * w + c[4]) * w
    return a, z, w, s_hi, corr, pw


@in_pieces
def asinf(x: np.ndarray) -> np.ndarray:
    """MKL's SSE asin of a float32 array (see the module's docstring)."""
    x = np.asarray(x, _F)
    with np.errstate(all="ignore"):
        a, _, _, s_hi, corr, pw = _asin_parts(x)
        small = a < _F(0.5)
        head = _HALF_PI[0] - s_hi
        tail = ((_HALF_PI[0] - head) - s_hi) + (corr + _HALF_PI[1])
        y = (np.where(small, a, corr - s_hi) * pw + np.where(small, _F(0), tail)) + np.where(
            small, a, head
        )
        y = (y.view(_U) ^ (x.view(_U) & _U(0x80000000))).view(_F)
        return np.where(a <= _F(1), y, _F(np.nan))


@in_pieces
def acosf(x: np.ndarray) -> np.ndarray:
    """MKL's SSE acos of a float32 array (see the module's docstring)."""
    x = np.asarray(x, _F)
    with np.errstate(all="ignore"):
        a, z, w, s_hi, corr, pw = _asin_parts(x)
        root = ~(w < z)  # |x| >= 1/2: through the root
        negative = root & ~(w < x)
        c_hi = np.where(root, np.where(negative, _PI[0], _F(0)), _HALF_PI[0])
        c_lo = np.where(root, np.where(negative, _PI[1], _F(0)), _HALF_PI[1])
        sign = x.view(_U) & _U(0x80000000)
        fix = np.where(root, corr, _F(0))
        head = np.where(root, s_hi, (x.view(_U) | _U(0x80000000)).view(_F))
        y = ((head - fix) * pw + ((c_lo.view(_U) ^ sign).view(_F) - fix)) + head
        y = (y.view(_U) ^ sign).view(_F) + c_hi
        return np.where(a <= _F(1), y, _F(np.nan))
