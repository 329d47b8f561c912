@a = global [4 x i8] zeroinitializer
@b = global [4 x i8] zeroinitializer
@weird = global i64 mul (i64 ptrtoint (ptr @a to i64), i64 ptrtoint (ptr @b to i64))
