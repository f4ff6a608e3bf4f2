fn main() {
    println!("nnue-learn");
}
